"""The pairs-folder reader: both chat formats Folio writes, image paths relative to the folder and
kept inside it, and a clear refusal naming the file and line for anything else."""
from __future__ import annotations

import json
import tempfile
import unittest
from pathlib import Path

from PIL import Image

from folio_model.pairs import Pair, PairsError, read_pairs

DEEPSEEK_PROMPT = "<image>\n<|grounding|>Convert the document to markdown."
JINA_PROMPT = "Transcribe the provided document image into a clean Markdown format, preserving the natural reading order."


def deepseek_line(image: str, text: str) -> dict:
    return {"messages": [{"role": "<|User|>", "content": DEEPSEEK_PROMPT, "images": [image]},
                         {"role": "<|Assistant|>", "content": text}]}


def jina_line(image: str, text: str) -> dict:
    return {"messages": [{"role": "user", "content": [{"type": "image", "image": image}, {"type": "text", "text": JINA_PROMPT}]},
                         {"role": "assistant", "content": [{"type": "text", "text": text}]}]}


class PairsFolder:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "images").mkdir()
        for name in ("a-p1.png", "b-p2.png"):
            Image.new("RGB", (40, 64), "white").save(root / "images" / name)
        (root / "manifest.json").write_text(json.dumps({"format": "folio-training-pairs", "version": 1, "pairs": []}))

    def write(self, split: str, lines: list[dict | str]) -> None:
        text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
        (self.root / f"{split}.jsonl").write_text(text)


class ReadPairsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.scratch = tempfile.TemporaryDirectory()
        self.folder = PairsFolder(Path(self.scratch.name))

    def tearDown(self) -> None:
        self.scratch.cleanup()

    def test_reads_deepseek_and_chat_template_lines_with_images_inside_the_folder(self) -> None:
        self.folder.write("train", [deepseek_line("images/a-p1.png", "# Title\n\nBody $x^2$"),
                                    jina_line("images/b-p2.png", "<table><tr><td>1</td></tr></table>")])
        self.folder.write("validation", [])
        root = self.folder.root.resolve()
        self.assertEqual(read_pairs(self.folder.root, "train"), [
            Pair(root / "images/a-p1.png", DEEPSEEK_PROMPT, "# Title\n\nBody $x^2$"),
            Pair(root / "images/b-p2.png", JINA_PROMPT, "<table><tr><td>1</td></tr></table>"),
        ])
        self.assertEqual(read_pairs(self.folder.root, "validation"), [])

    def test_refuses_an_image_outside_the_folder_or_missing_naming_the_line(self) -> None:
        for image, says in (("../escape.png", "leads outside"), ("/etc/passwd", "must be relative"),
                            ("images/none.png", "is missing")):
            self.folder.write("train", [deepseek_line("images/a-p1.png", "ok"), deepseek_line(image, "x")])
            with self.assertRaisesRegex(PairsError, rf"train\.jsonl:2: .*{says}"):
                read_pairs(self.folder.root)

    def test_refuses_lines_in_no_known_chat_format(self) -> None:
        cases = [
            ("{not json", "not JSON"),
            ({"messages": [{"role": "system", "content": "x"}, {"role": "user", "content": "y"}]}, "neither"),
            ({"messages": [{"role": "<|User|>", "content": DEEPSEEK_PROMPT, "images": []},
                           {"role": "<|Assistant|>", "content": "x"}]}, "one image path"),
            ({"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]},
                           {"role": "assistant", "content": [{"type": "text", "text": "y"}]}]}, "one image part"),
        ]
        for line, says in cases:
            self.folder.write("train", [line])
            with self.assertRaisesRegex(PairsError, rf"train\.jsonl:1: .*{says}"):
                read_pairs(self.folder.root)

    def test_refuses_a_folder_without_a_pairs_manifest(self) -> None:
        (self.folder.root / "manifest.json").write_text(json.dumps({"format": "something-else", "version": 1}))
        self.folder.write("train", [])
        with self.assertRaisesRegex(PairsError, "not a Folio training-pairs manifest"):
            read_pairs(self.folder.root)


if __name__ == "__main__":
    unittest.main()
