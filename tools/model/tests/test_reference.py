import unittest

import torch

from folio_model import sam
from folio_model.build_tiny import tiny_config
from folio_model.graphs import DecoderGraph, MTPGraph
from folio_model.model import DeepseekOCRForCausalLM
from folio_model.vision import layout_visual_tokens, visual_token_count


def random_model() -> DeepseekOCRForCausalLM:
    torch.manual_seed(3)
    model = DeepseekOCRForCausalLM(tiny_config(320)).eval()
    with torch.no_grad():
        for param in model.parameters():
            param.normal_(0, 0.1)
    return model


class Decoder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = random_model()
        cls.graph = DecoderGraph(cls.model)

    def test_stepping_with_new_rows_matches_the_full_sequence(self):
        embeds = torch.randn(1, 9, 64)
        positions = torch.arange(9)[None]
        with torch.no_grad():
            full_logits, full_hidden, *_ = self.graph(embeds, positions, torch.tensor(9))
            out = self.graph(embeds[:, :5], positions[:, :5], torch.tensor(1))
            cache = list(out[2:])
            for step in range(5, 9):
                out = self.graph(embeds[:, step:step + 1], positions[:, step:step + 1], torch.tensor(1), *cache)
                self.assertEqual(out[2].shape, (1, 1, 4, 16))  # only the new row comes back
                cache = [torch.cat([old, new], dim=1) for old, new in zip(cache, out[2:])]
                torch.testing.assert_close(out[0][0, -1], full_logits[0, step], atol=1e-5, rtol=0)
                torch.testing.assert_close(out[1][0, -1], full_hidden[0, step], atol=1e-5, rtol=0)

    def test_logits_cover_only_the_last_n_positions(self):
        with torch.no_grad():
            logits, hidden, *_ = self.graph(torch.randn(1, 6, 64), torch.arange(6)[None], torch.tensor(2))
        self.assertEqual(logits.shape, (1, 2, 320))
        self.assertEqual(hidden.shape, (1, 6, 64))

    def test_later_tokens_do_not_change_earlier_outputs(self):
        embeds = torch.randn(1, 6, 64)
        with torch.no_grad():
            _, a, *_ = self.graph(embeds, torch.arange(6)[None], torch.tensor(1))
            embeds[0, 5] += 1.0
            _, b, *_ = self.graph(embeds, torch.arange(6)[None], torch.tensor(1))
        torch.testing.assert_close(a[0, :5], b[0, :5])
        self.assertFalse(torch.allclose(a[0, 5], b[0, 5]))

    def test_router_keeps_top_k_softmax_weights_without_renormalising(self):
        gate = self.model.model.layers[1].mlp.gate
        x = torch.randn(5, 64)
        with torch.no_grad():
            dense = gate(x)
            probs = torch.softmax(x @ gate.weight.t(), dim=-1)
        self.assertTrue(torch.all((dense > 0).sum(-1) == 2))
        torch.testing.assert_close(dense.sum(-1), probs.topk(2).values.sum(-1))
        self.assertTrue(torch.all(dense.sum(-1) < 1))

    def test_mtp_concatenates_embedding_before_hidden(self):
        graph = MTPGraph(self.model)
        head = graph.head
        emb, hid = torch.randn(1, 1, 64), torch.randn(1, 1, 64)
        with torch.no_grad():
            expected = head.eh_proj(torch.cat([head.enorm(emb), head.hnorm(hid)], -1))
            swapped = head.eh_proj(torch.cat([head.enorm(hid), head.hnorm(emb)], -1))
            seen = []
            hook = head.mtp_block.register_forward_pre_hook(lambda _m, args: seen.append(args[0]))
            graph(emb, hid, torch.tensor([[0]]), torch.tensor(1),
                  torch.zeros(1, 4, 16, 0), torch.zeros(1, 4, 0, 16), torch.zeros(1, 1, 1, 1))
            hook.remove()
        torch.testing.assert_close(seen[0], expected)
        self.assertFalse(torch.allclose(seen[0], swapped))

    def test_mtp_graph_over_a_capacity_cache_matches_the_head_over_cached_rows(self):
        head, norm = self.model.mtp_module.heads[0], self.model.model.norm
        past, capacity, rows = 5, 8, 3
        emb, hid = torch.randn(1, past + rows, 64), torch.randn(1, past + rows, 64)
        positions = torch.arange(past + rows)[None]
        with torch.no_grad():
            _, (keys, values) = head(emb[:, :past], hid[:, :past], positions[:, :past], norm, None)
            expected, (new_keys, new_values) = head(emb[:, past:], hid[:, past:], positions[:, past:], norm,
                                                    (keys, values))
            # slots past the cache's length hold leftovers (rolled-back drafts); the bias hides them
            key_slots = torch.randn(1, 4, 16, capacity)
            value_slots = torch.randn(1, 4, capacity, 16)
            key_slots[..., :past] = keys.permute(0, 2, 3, 1)
            value_slots[:, :, :past] = values.transpose(1, 2)
            bias = torch.zeros(1, 1, rows, capacity + rows)
            bias[..., past:capacity] = float("-inf")
            bias[0, 0, :, capacity:] = torch.full((rows, rows), float("-inf")).triu(1)
            logits, hidden, key, value = MTPGraph(self.model)(
                emb[:, past:], hid[:, past:], positions[:, past:], torch.tensor(1), key_slots, value_slots, bias)
        torch.testing.assert_close(hidden, expected, atol=1e-5, rtol=0)
        torch.testing.assert_close(logits[0, -1], self.model.lm_head(expected[0, -1]), atol=1e-5, rtol=0)
        torch.testing.assert_close(key, new_keys)
        torch.testing.assert_close(value, new_values)

    def test_mtp_graph_over_two_lanes_gives_each_lane_what_it_gives_alone(self):
        # a packed pass: two pages' caches on the batch axis, their rows lane by lane in groups of 2
        graph, capacity, rows = MTPGraph(self.model), 6, 2
        lengths = (4, 1)
        emb, hid = torch.randn(1, 2 * rows, 64), torch.randn(1, 2 * rows, 64)
        keys, values = torch.randn(2, 4, 16, capacity), torch.randn(2, 4, capacity, 16)
        bias = torch.full((2, 1, rows, capacity + rows), float("-inf"))
        for lane, length in enumerate(lengths):
            bias[lane, 0, :, :length] = 0
            bias[lane, 0, :, capacity:] = torch.full((rows, rows), float("-inf")).triu(1)
        positions = torch.tensor([[lengths[0], lengths[0] + 1, lengths[1], lengths[1] + 1]])
        with torch.no_grad():
            _, hidden, key, value = graph(emb, hid, positions, torch.tensor(0), keys, values, bias)
            for lane in range(2):
                at = slice(lane * rows, (lane + 1) * rows)
                _, alone, alone_key, alone_value = graph(emb[:, at], hid[:, at], positions[:, at], torch.tensor(0),
                                                         keys[lane:lane + 1], values[lane:lane + 1], bias[lane:lane + 1])
                torch.testing.assert_close(hidden[:, at], alone, atol=1e-5, rtol=0)
                torch.testing.assert_close(key[:, at], alone_key)
                torch.testing.assert_close(value[:, at], alone_value)


class Layout(unittest.TestCase):
    def test_tiles_then_global_then_separator_with_row_newlines(self):
        hidden = 3
        glob = torch.arange(16 * hidden, dtype=torch.float32).reshape(16, hidden)
        tiles = 1000 + torch.arange(2 * 4 * hidden, dtype=torch.float32).reshape(2, 4, hidden)
        newline, sep = torch.full((hidden,), -1.0), torch.full((hidden,), -2.0)
        seq = layout_visual_tokens(glob, tiles, 2, 1, newline, sep)
        self.assertEqual(seq.shape[0], visual_token_count(4, 2, 2, 1))
        # first local row: tile 0's first row, tile 1's first row, newline
        torch.testing.assert_close(seq[:5], torch.stack([tiles[0, 0], tiles[0, 1], tiles[1, 0], tiles[1, 1], newline]))
        torch.testing.assert_close(seq[10:14], glob[:4])
        torch.testing.assert_close(seq[14], newline)
        torch.testing.assert_close(seq[-1], sep)

    def test_token_counts_match_the_published_modes(self):
        self.assertEqual(visual_token_count(16, 10, 1, 1), 273)  # Base
        self.assertEqual(visual_token_count(20, 10, 1, 1), 421)  # Large
        self.assertEqual(visual_token_count(8, 10, 1, 1), 73)  # Tiny
        self.assertEqual(visual_token_count(16, 10, 3, 2), 273 + 20 * 31)  # Gundam 3x2


class CheckpointNames(unittest.TestCase):
    def test_names_follow_the_published_checkpoint(self):
        names = set(random_model().state_dict())
        for name in [
            "model.embed_tokens.weight", "model.norm.weight", "lm_head.weight",
            "model.image_newline", "model.view_seperator",
            "model.layers.0.mlp.gate_proj.weight", "model.layers.1.mlp.gate.weight",
            "model.layers.1.mlp.experts.3.down_proj.weight", "model.layers.2.mlp.shared_experts.up_proj.weight",
            "model.layers.2.self_attn.o_proj.weight", "model.layers.2.post_attention_layernorm.weight",
            "model.sam_model.patch_embed.proj.weight", "model.sam_model.pos_embed",
            "model.sam_model.blocks.1.attn.rel_pos_h", "model.sam_model.blocks.0.mlp.lin2.bias",
            "model.sam_model.neck.0.weight", "model.sam_model.neck.3.bias",
            "model.sam_model.net_2.weight", "model.sam_model.net_3.weight",
            "model.vision_model.embeddings.class_embedding", "model.vision_model.embeddings.patch_embedding.weight",
            "model.vision_model.embeddings.position_embedding.weight", "model.vision_model.pre_layrnorm.weight",
            "model.vision_model.transformer.layers.1.self_attn.qkv_proj.weight",
            "model.vision_model.transformer.layers.1.mlp.fc2.bias",
            "model.projector.layers.weight", "model.projector.layers.bias",
            "mtp_module.heads.0.enorm.weight", "mtp_module.heads.0.hnorm.weight", "mtp_module.heads.0.eh_proj.weight",
            "mtp_module.heads.0.mtp_block.self_attn.q_proj.weight", "mtp_module.heads.0.mtp_block.mlp.down_proj.weight",
        ]:
            self.assertIn(name, names)
        self.assertFalse(any(".bias" in n for n in names if n.startswith("model.layers.") and "self_attn" in n))
        self.assertFalse(any("mtp_block.mlp.experts" in n for n in names))


if __name__ == "__main__":
    unittest.main()


class SamAttention(unittest.TestCase):
    def test_query_bands_give_the_whole_grid_s_attention(self):
        torch.manual_seed(0)
        attention = sam.Attention(dim=32, heads=2, size=12).eval()
        with torch.no_grad():
            for p in attention.parameters():
                p.normal_(0, 0.5)
            x = torch.randn(1, 12, 12, 32)
            whole = attention(x)
            saved = sam.QUERY_BAND
            try:
                sam.QUERY_BAND = 40  # 3 rows of 12 queries a band: four bands
                banded = attention(x)
            finally:
                sam.QUERY_BAND = saved
        self.assertTrue(torch.allclose(whole, banded, rtol=1e-5, atol=1e-5 * float(whole.abs().max())))
