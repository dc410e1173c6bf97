from playtable.cli import main

main()
