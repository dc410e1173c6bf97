"""People at the tables: names without accounts, ratings of people and bots and their routes."""
