"""The web app: a table server (`server/`) and the pages it serves (`static/`)."""
