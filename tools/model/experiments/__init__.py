"""The nano model's experiments: synthetic pages, training, measuring. Not part of the product
(`folio_model`); run from tools/model as `python3 -m experiments.<module>`."""
