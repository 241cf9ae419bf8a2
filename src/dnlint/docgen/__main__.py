import sys

from dnlint.docgen.rules_page import main

sys.exit(main(sys.argv[1:]))
