"""Reads a fine-tuning pairs folder as Folio writes it (`folio export-pairs`, or the app's Training
pairs export): `train.jsonl` / `validation.jsonl`, one chat per line with the page image's path
relative to the folder, `images/`, and `manifest.json`.

Both chat formats are read: DeepSeek-OCR's conversation (`<|User|>` with `content` = the prompt and
`images` = [path], then `<|Assistant|>` with the Markdown) and chat-template messages as jina-ocr-v1's
processor takes them (`user` with an image part and a text part, then `assistant` with a text part).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

SPLIT_FILES = {"train": "train.jsonl", "validation": "validation.jsonl"}


class PairsError(ValueError):
    """A pairs folder that cannot be read; the message names the file, the line and what is wrong."""


@dataclass(frozen=True)
class Pair:
    image: Path  # absolute, inside the folder
    prompt: str  # the user turn's text (DeepSeek-OCR's includes its `<image>` placeholder)
    markdown: str  # the assistant turn: the page's final Markdown


def read_manifest(folder: Path) -> dict:
    file = Path(folder) / "manifest.json"
    try:
        manifest = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise PairsError(f"{file}: cannot be read ({error}); is this a folder Folio exported pairs to?") from error
    if manifest.get("format") != "folio-training-pairs":
        raise PairsError(f"{file}: not a Folio training-pairs manifest (format {manifest.get('format')!r})")
    if manifest.get("version") != 1:
        raise PairsError(f"{file}: version {manifest.get('version')!r}; this reader knows version 1")
    return manifest


def read_pairs(folder: Path, split: str = "train") -> list[Pair]:
    """The pairs of one split, in file order; every image must exist inside the folder."""
    folder = Path(folder).resolve()
    read_manifest(folder)
    if split not in SPLIT_FILES:
        raise PairsError(f"split {split!r} is not one of {', '.join(SPLIT_FILES)}")
    file = folder / SPLIT_FILES[split]
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise PairsError(f"{file}: cannot be read ({error})") from error
    pairs = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{file}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise PairsError(f"{where}: not JSON ({error})") from error
        image, prompt, markdown = _chat(record, where)
        pairs.append(Pair(_image_path(folder, image, where), prompt, markdown))
    return pairs


def _chat(record: object, where: str) -> tuple[str, str, str]:
    messages = record.get("messages") if isinstance(record, dict) else None
    if not isinstance(messages, list) or len(messages) != 2 or not all(isinstance(m, dict) for m in messages):
        raise PairsError(f"{where}: expected {{\"messages\": [user turn, assistant turn]}}")
    user, assistant = messages
    if user.get("role") == "<|User|>" and assistant.get("role") == "<|Assistant|>":
        images = user.get("images")
        if not (isinstance(images, list) and len(images) == 1 and isinstance(images[0], str)):
            raise PairsError(f"{where}: the <|User|> turn must list one image path in \"images\"")
        if not isinstance(user.get("content"), str) or not isinstance(assistant.get("content"), str):
            raise PairsError(f"{where}: DeepSeek-OCR turns hold their text as a string in \"content\"")
        return images[0], user["content"], assistant["content"]
    if user.get("role") == "user" and assistant.get("role") == "assistant":
        parts = user.get("content")
        answer = assistant.get("content")
        if not isinstance(parts, list) or not isinstance(answer, list):
            raise PairsError(f"{where}: chat-template turns hold a list of parts in \"content\"")
        images = [p.get("image") for p in parts if isinstance(p, dict) and p.get("type") == "image"]
        texts = [p.get("text") for p in parts if isinstance(p, dict) and p.get("type") == "text"]
        answers = [p.get("text") for p in answer if isinstance(p, dict) and p.get("type") == "text"]
        if len(images) != 1 or not isinstance(images[0], str):
            raise PairsError(f"{where}: the user turn must have one image part with an \"image\" path")
        if not all(isinstance(t, str) for t in texts + answers) or len(answers) != 1:
            raise PairsError(f"{where}: the assistant turn must have one text part")
        return images[0], "\n".join(texts), answers[0]
    raise PairsError(f"{where}: roles {user.get('role')!r}, {assistant.get('role')!r} are neither "
                     "DeepSeek-OCR's (<|User|>, <|Assistant|>) nor a chat template's (user, assistant)")


def _image_path(folder: Path, relative: str, where: str) -> Path:
    if Path(relative).is_absolute():
        raise PairsError(f"{where}: image path {relative!r} must be relative to the pairs folder")
    path = (folder / relative).resolve()
    if folder not in path.parents:
        raise PairsError(f"{where}: image path {relative!r} leads outside the pairs folder")
    if not path.is_file():
        raise PairsError(f"{where}: image {relative!r} is missing from {folder}")
    return path
