"""The nano model's tokenizer: byte-level BPE whose merges are learnt from synthetic training pages.

`folio_model.byte_bpe` merges letters only (optionally after the space marker), which keeps its
Python encoder equal to the Hugging Face ByteLevel pre-tokenizer the runtime uses; on this word
list that still makes most words one token.
"""
from __future__ import annotations

from folio_model.byte_bpe import build_tokenizer, train_merges
from folio_model.package import SPECIAL_TOKENS

from .render import make_page

CORPUS_PAGES = 1500
MERGES = 1500


def corpus(pages: int = CORPUS_PAGES) -> str:
    return "\n".join(make_page("train", index).markdown for index in range(pages))


def nano_tokenizer(pages: int = CORPUS_PAGES, merges: int = MERGES) -> dict:
    return build_tokenizer(train_merges(corpus(pages), merges), list(SPECIAL_TOKENS))
