"""Data-parallel training on one machine: one process a core ("rank"), each on its own pages, their
gradients averaged over gloo on 127.0.0.1 (train.py, train_mtp.py)."""
from __future__ import annotations

import argparse
from typing import Callable

import torch


def add_rank_options(parser: argparse.ArgumentParser, port: int) -> None:
    parser.add_argument("--ranks", type=int, default=1,
                        help="processes training together, each on its own pages, gradients averaged (one per core)")
    parser.add_argument("--port", type=int, default=port, help="127.0.0.1 port the ranks meet on")


def run_on_ranks(train: Callable[[int, argparse.Namespace], int], args: argparse.Namespace) -> int:
    """`train(rank, args)` in `args.ranks` processes; rank 0 is this one. Returns rank 0's code."""
    if args.ranks == 1:
        return train(0, args)
    others = [torch.multiprocessing.get_context("spawn").Process(target=train, args=(rank, args))
              for rank in range(1, args.ranks)]
    for process in others:
        process.start()
    code = train(0, args)
    for process in others:
        process.join()
    return code


def join_ranks(rank: int, args: argparse.Namespace) -> None:
    if args.ranks > 1:
        torch.distributed.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{args.port}", rank=rank,
                                             world_size=args.ranks)


def agreed_stop(stop: list[bool], ranks: int) -> bool:
    """Whether to stop now: every rank stops at the same step, whichever was told to (`stop` gets
    an entry when this one was)."""
    if ranks > 1:
        flag = torch.tensor([1.0 if stop else 0.0])
        torch.distributed.all_reduce(flag)
        if float(flag) > 0 and not stop:
            stop.append(True)
    return bool(stop)


def average_gradients(parameters: list[torch.nn.Parameter], ranks: int) -> None:
    """One all-reduce of every gradient; an expert no page of this rank's batch reached counts as zero."""
    grads = [p.grad if p.grad is not None else torch.zeros_like(p) for p in parameters]
    flat = torch.cat([g.reshape(-1) for g in grads])
    torch.distributed.all_reduce(flat)
    flat /= ranks
    offset = 0
    for p in parameters:
        p.grad = flat[offset:offset + p.numel()].view_as(p).clone()
        offset += p.numel()
