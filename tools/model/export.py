"""`python3 tools/model/export.py ...` = `python3 -m folio_model export ...` (folio_model/export.py)."""
import sys

from folio_model.export import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
