"""The Wizard's Labyrinth: the wizard-versus-heroes board game of seed 003."""
