"""`python3 tools/model/random_checkpoint.py ...` = `python3 -m folio_model random-checkpoint ...`
(folio_model/random_checkpoint.py)."""
import sys

from folio_model.random_checkpoint import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
