from dnlint.cli import main

main()
