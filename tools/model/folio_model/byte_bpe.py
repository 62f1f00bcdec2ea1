"""A small byte-level BPE tokenizer for the tiny test model: trained on a fixed text, written as a
Hugging Face `tokenizer.json`, and an encoder for that file's merges.

Merges only ever join letters (optionally after the space marker), so encoding the whole text at
once gives the same tokens as the byte-level pre-tokenizer's regex split does for ordinary prose;
that keeps this encoder small and regex-module free.
"""
from __future__ import annotations

from collections import Counter

BOS, EOS, PAD = "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜▁pad▁｜>"


def byte_alphabet() -> dict[int, str]:
    """GPT-2's printable stand-in character for each byte."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars


ALPHABET = byte_alphabet()
SPACE = ALPHABET[ord(" ")]


def _mergeable(token: str) -> bool:
    body = token[1:] if token.startswith(SPACE) else token
    return bool(body) and body.isascii() and body.isalpha()


def train_merges(text: str, count: int, max_letters: int | None = None) -> list[tuple[str, str]]:
    """Most frequent adjacent pairs of letter tokens, ties broken alphabetically (deterministic);
    with `max_letters`, no token spells more letters than that (the space marker not counted)."""
    words = Counter(
        tuple(ALPHABET[b] for b in (" " + w).encode()) for w in text.split()
    )
    merges: list[tuple[str, str]] = []
    for _ in range(count):
        pairs: Counter[tuple[str, str]] = Counter()
        for word, n in words.items():
            for a, b in zip(word, word[1:]):
                if _mergeable(a + b) and (_mergeable(a) or a == SPACE) and _mergeable(b) and \
                        (max_letters is None or len((a + b).removeprefix(SPACE)) <= max_letters):
                    pairs[(a, b)] += n
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append(best)
        words = Counter({_merge_word(w, best): n for w, n in words.items()})
    return merges


def _merge_word(word: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(word[i] + word[i + 1])
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def build_tokenizer(merges: list[tuple[str, str]], specials: list[str]) -> dict:
    """tokenizer.json: BOS/EOS/PAD at 0-2, the 256 byte symbols, merged symbols, then `specials`."""
    vocab = {BOS: 0, EOS: 1, PAD: 2}
    for b in range(256):
        vocab[ALPHABET[b]] = len(vocab)
    for a, b in merges:
        vocab[a + b] = len(vocab)
    added = []
    for content in [BOS, EOS, PAD] + specials:
        vocab.setdefault(content, len(vocab))
        added.append({"id": vocab[content], "content": content, "single_word": False, "lstrip": False,
                      "rstrip": False, "normalized": False, "special": True})
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": [f"{a} {b}" for a, b in merges]},
    }


def encode(tokenizer: dict, text: str) -> list[int]:
    """Token ids for `text` (no BOS): special tokens matched first, BPE by merge rank elsewhere."""
    vocab = tokenizer["model"]["vocab"]
    ranks = {tuple(m.split(" ")): i for i, m in enumerate(tokenizer["model"]["merges"])}
    specials = sorted((t["content"] for t in tokenizer["added_tokens"]), key=len, reverse=True)
    ids: list[int] = []
    plain = ""
    i = 0
    while i < len(text):
        special = next((s for s in specials if text.startswith(s, i)), None)
        if special is None:
            plain += text[i]
            i += 1
            continue
        ids += _bpe(plain, ranks, vocab)
        ids.append(vocab[special])
        plain = ""
        i += len(special)
    return ids + _bpe(plain, ranks, vocab)


def decode(tokenizer: dict, ids: list[int]) -> str:
    """The text `ids` spell, BOS/EOS/PAD left out (the other special tokens spell their own text); a
    broken UTF-8 sequence comes out as U+FFFD."""
    pieces = {index: piece for piece, index in tokenizer["model"]["vocab"].items()}
    byte_of = {char: byte for byte, char in ALPHABET.items()}
    return bytes(byte_of[char] for index in ids if index > 2 for char in pieces[index]).decode(errors="replace")


def _bpe(text: str, ranks: dict[tuple[str, str], int], vocab: dict[str, int]) -> list[int]:
    word = tuple(ALPHABET[b] for b in text.encode())
    while len(word) > 1:
        pairs = [(ranks.get(p, len(ranks)), p) for p in zip(word, word[1:])]
        rank, best = min(pairs)
        if rank == len(ranks):
            break
        word = _merge_word(word, best)
    return [vocab[t] for t in word]
