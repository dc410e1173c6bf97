"""Star Dice (seed 002): dice thrown onto a multitouch table connect into scoring formations."""
