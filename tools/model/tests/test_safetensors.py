import json
import tempfile
import unittest
from pathlib import Path

import numpy as np

from folio_model.safetensors_io import (INDEX_FILE, SafetensorsError, SafetensorsStream, bf16_to_fp32,
                                        fp32_to_bf16, read_checkpoint, read_header, read_safetensors,
                                        write_safetensors, write_sharded)


def sample() -> dict[str, np.ndarray]:
    rng = np.random.RandomState(7)
    return {
        "model.layers.0.mlp.gate.weight": rng.standard_normal((4, 6)).astype(np.float32),
        "model.norm.weight": rng.standard_normal(6).astype(np.float16),
        "position_ids": np.arange(5, dtype=np.int64)[None],
        "scalar": np.array(3.5, dtype=np.float32),
    }


class Safetensors(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp())

    def test_round_trip_keeps_dtype_shape_and_values(self):
        write_safetensors(self.dir / "a.safetensors", sample())
        loaded = read_safetensors(self.dir / "a.safetensors")
        for name, array in sample().items():
            self.assertEqual(loaded[name].dtype, array.dtype, name)
            np.testing.assert_array_equal(loaded[name], array)

    def test_header_is_eight_byte_aligned(self):
        write_safetensors(self.dir / "a.safetensors", sample())
        header_len = int.from_bytes((self.dir / "a.safetensors").read_bytes()[:8], "little")
        self.assertEqual(header_len % 8, 0)

    def test_bf16_is_widened_to_fp32_on_load(self):
        values = np.array([1.0, -2.5, 3.140625, 1e-3, 65504.0], dtype=np.float32)
        write_safetensors(self.dir / "b.safetensors", {"w": values}, bf16=True)
        data = (self.dir / "b.safetensors").read_bytes()
        header = json.loads(data[8:8 + int.from_bytes(data[:8], "little")])
        self.assertEqual(header["w"]["dtype"], "BF16")
        loaded = read_safetensors(self.dir / "b.safetensors")["w"]
        self.assertEqual(loaded.dtype, np.float32)
        np.testing.assert_array_equal(loaded[:3], values[:3])  # exactly representable in bf16
        np.testing.assert_allclose(loaded, values, rtol=2 ** -8)

    def test_bf16_rounds_to_nearest_even(self):
        halfway = np.array([1.0 + 2 ** -8, 1.0 + 3 * 2 ** -8], dtype=np.float32)
        np.testing.assert_array_equal(bf16_to_fp32(fp32_to_bf16(halfway)), [1.0, 1.0 + 2 ** -6])

    def test_sharded_checkpoint_reads_through_the_index(self):
        write_sharded(self.dir, sample(), shards=2)
        index = json.loads((self.dir / INDEX_FILE).read_text())
        self.assertEqual(len(set(index["weight_map"].values())), 2)
        loaded = read_checkpoint(self.dir)
        self.assertEqual(sorted(loaded), sorted(sample()))
        np.testing.assert_array_equal(loaded["position_ids"], sample()["position_ids"])

    def test_a_tensor_missing_from_its_shard_is_reported(self):
        write_sharded(self.dir, sample(), shards=2)
        index = json.loads((self.dir / INDEX_FILE).read_text())
        index["weight_map"]["model.extra.weight"] = "model-00001-of-00002.safetensors"
        (self.dir / INDEX_FILE).write_text(json.dumps(index))
        with self.assertRaisesRegex(SafetensorsError, "model.extra.weight"):
            read_checkpoint(self.dir)

    def test_truncated_file_names_the_file(self):
        write_safetensors(self.dir / "c.safetensors", sample())
        data = (self.dir / "c.safetensors").read_bytes()
        (self.dir / "c.safetensors").write_bytes(data[:20])
        with self.assertRaisesRegex(SafetensorsError, "c.safetensors"):
            read_safetensors(self.dir / "c.safetensors")

    def test_a_streamed_file_reads_back_chunk_by_chunk_as_written(self):
        big = np.arange(10, dtype=np.float32).reshape(2, 5) / 4
        entries = [("b.weight", "BF16", (2, 5)), ("a.ids", "I64", (1, 5))]
        with SafetensorsStream(self.dir / "s.safetensors", entries, metadata={"format": "pt"}) as stream:
            flat = fp32_to_bf16(big.reshape(-1))
            stream.write("b.weight", flat[:3])
            stream.write("b.weight", flat[3:])
            stream.write("a.ids", sample()["position_ids"])
        loaded = read_safetensors(self.dir / "s.safetensors")
        np.testing.assert_array_equal(loaded["b.weight"], big)
        np.testing.assert_array_equal(loaded["a.ids"], sample()["position_ids"])
        header = read_header(self.dir / "s.safetensors")
        self.assertEqual(header["__metadata__"], {"format": "pt"})
        self.assertEqual(header["a.ids"]["data_offsets"], [20, 60])

    def test_a_stream_refuses_data_out_of_order_or_too_long_or_missing(self):
        entries = [("x", "F32", (2,)), ("y", "F32", (1,))]
        with self.assertRaisesRegex(SafetensorsError, "got data for y, expected x"):
            with SafetensorsStream(self.dir / "o.safetensors", entries) as stream:
                stream.write("y", np.zeros(1, np.float32))
        with self.assertRaisesRegex(SafetensorsError, "x got 12 bytes, its header says 8"):
            with SafetensorsStream(self.dir / "o.safetensors", entries) as stream:
                stream.write("x", np.zeros(3, np.float32))
        with self.assertRaisesRegex(SafetensorsError, "closed before y was complete"):
            with SafetensorsStream(self.dir / "o.safetensors", entries) as stream:
                stream.write("x", np.zeros(2, np.float32))

    def test_folder_without_weights_says_what_to_do(self):
        with self.assertRaisesRegex(SafetensorsError, "--checkpoint"):
            read_checkpoint(self.dir)


if __name__ == "__main__":
    unittest.main()
