"""Train the encoder-decoder Transformer to translate (or copy, or reverse) short sentences.

    python examples/translate.py                   # English -> Portuguese, built-in corpus
    python examples/translate.py --task reverse    # the classic toy: output the input reversed
    python examples/translate.py --task copy --iters 300

The translation corpus is generated from templates with a small lexicon, e.g. "today is
sunday" -> "hoje é domingo" (the example of seed 001), "the big house" -> "a casa grande"
(Portuguese puts most adjectives after the noun, and they agree with its gender),
"i see the red car" -> "eu vejo o carro vermelho". Some sentences (including "today is
sunday") are held out: the model never sees them and must compose their translations from
the parts it has seen elsewhere.

Training is the paper's recipe, in miniature:

- teacher forcing: the decoder's input is the target *shifted right* -- a start token <s>
  in front and the last token dropped -- and position t is trained to predict target token
  t (``tgt_in = <s> y1 .. yn``, ``tgt_out = y1 .. yn </s>``); the causal mask stops it
  from peeking at the answer;
- padding: sentences in a batch are padded with <pad>, which the model masks as attention
  keys (``pad_id``) and the loss ignores (label -100);
- Adam with a short warmup, cross-entropy on every target token.

Then every held-out sentence is translated twice, by greedy decoding and by beam search,
and the exact-match rate (the whole output equal to the reference) is reported.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import minigrad
from minigrad import models
from minigrad.nn import functional as F
from minigrad.optim import Adam, clip_grad_norm_, cosine_lr

PAD, START, END = "<pad>", "<s>", "</s>"
SPECIALS = [PAD, START, END]  # ids 0, 1, 2 in every vocabulary

# ---------------------------------------------------------------- the corpus ------------
DAYS = {"sunday": "domingo", "monday": "segunda-feira", "tuesday": "terça-feira",
        "wednesday": "quarta-feira", "thursday": "quinta-feira", "friday": "sexta-feira",
        "saturday": "sábado"}
DAY_FRAMES = [("today is", "hoje é"), ("tomorrow is", "amanhã é"), ("yesterday was", "ontem foi")]
# noun -> (Portuguese noun, gender)
NOUNS = {"cat": ("gato", "m"), "dog": ("cão", "m"), "book": ("livro", "m"),
         "car": ("carro", "m"), "bird": ("pássaro", "m"), "house": ("casa", "f"),
         "door": ("porta", "f"), "table": ("mesa", "f"), "city": ("cidade", "f"),
         "flower": ("flor", "f")}
# adjective -> (masculine, feminine)
ADJECTIVES = {"big": ("grande", "grande"), "small": ("pequeno", "pequena"),
              "new": ("novo", "nova"), "old": ("velho", "velha"),
              "red": ("vermelho", "vermelha"), "beautiful": ("bonito", "bonita"),
              "white": ("branco", "branca")}
ARTICLE = {"m": "o", "f": "a"}
# Always in the held-out set, so the demo shows the seed's sentence being translated; and
# the two other sentences with "sunday" always train, so that "domingo" can be learnt.
ALWAYS_HELD_OUT = ["today is sunday"]
ALWAYS_TRAINED = ["tomorrow is sunday", "yesterday was sunday"]


def translation_pairs() -> list[tuple[str, str]]:
    """Every (English, Portuguese) sentence pair the templates generate."""
    pairs = []
    for (en_frame, pt_frame) in DAY_FRAMES:
        for en_day, pt_day in DAYS.items():
            pairs.append((f"{en_frame} {en_day}", f"{pt_frame} {pt_day}"))
    for en_n, (pt_n, g) in NOUNS.items():
        art = ARTICLE[g]
        pairs.append((f"i see the {en_n}", f"eu vejo {art} {pt_n}"))
        for en_a, forms in ADJECTIVES.items():
            pt_a = forms[0] if g == "m" else forms[1]
            pairs.append((f"the {en_n} is {en_a}", f"{art} {pt_n} é {pt_a}"))
            pairs.append((f"the {en_n} is not {en_a}", f"{art} {pt_n} não é {pt_a}"))
            pairs.append((f"the {en_a} {en_n}", f"{art} {pt_n} {pt_a}"))
            pairs.append((f"i see the {en_a} {en_n}", f"eu vejo {art} {pt_n} {pt_a}"))
    return pairs


def toy_pairs(task: str, n: int, rng: np.random.Generator) -> list[tuple[str, str]]:
    """``n`` random digit sequences (length 3-8) and their copy or reversal."""
    pairs = []
    for _ in range(n):
        digits = [str(d) for d in rng.integers(0, 10, size=int(rng.integers(3, 9)))]
        out = digits if task == "copy" else digits[::-1]
        pairs.append((" ".join(digits), " ".join(out)))
    return pairs


def make_dataset(task: str, test_fraction: float, rng: np.random.Generator,
                 num_toy_test: int = 50
                 ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(train pairs, held-out pairs); no held-out source sentence occurs in training.

    Translation holds out ``test_fraction`` of the corpus; copy/reverse train on 2000
    random sequences and test on ``num_toy_test`` unseen ones.
    """
    if task == "translate":
        pairs = translation_pairs()
        held = [p for p in pairs if p[0] in ALWAYS_HELD_OUT]
        kept = [p for p in pairs if p[0] in ALWAYS_TRAINED]
        rest = [p for p in pairs if p[0] not in ALWAYS_HELD_OUT + ALWAYS_TRAINED]
        order = rng.permutation(len(rest))
        n_test = max(1, round(test_fraction * len(pairs))) - len(held)
        test = held + [rest[i] for i in order[:n_test]]
        train = kept + [rest[i] for i in order[n_test:]]
        return train, test
    train = toy_pairs(task, 2000, rng)
    seen = {src for src, _ in train}
    test = [p for p in toy_pairs(task, 4 * num_toy_test, rng) if p[0] not in seen]
    return train, test[:num_toy_test]


class Vocab:
    """Words <-> ids; ids 0, 1, 2 are <pad>, <s>, </s>."""

    def __init__(self, sentences: list[str]) -> None:
        words = sorted({w for s in sentences for w in s.split()})
        self.words = SPECIALS + words
        self.index = {w: i for i, w in enumerate(self.words)}

    def __len__(self) -> int:
        return len(self.words)

    def encode(self, sentence: str) -> list[int]:
        return [self.index[w] for w in sentence.split()]

    def decode(self, ids) -> str:
        """Words up to (not including) </s>, skipping <s> and <pad>."""
        out = []
        for i in ids:
            w = self.words[int(i)]
            if w == END:
                break
            if w not in (START, PAD):
                out.append(w)
        return " ".join(out)


def batch_arrays(pairs: list[tuple[str, str]], src_vocab: Vocab, tgt_vocab: Vocab
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(src (B, S), tgt_in (B, T), tgt_out (B, T)) padded; tgt_out is -100 at padding.

    tgt_in = <s> y1 .. yn (shifted right), tgt_out = y1 .. yn </s>.
    """
    srcs = [src_vocab.encode(s) for s, _ in pairs]
    tgts = [tgt_vocab.encode(t) for _, t in pairs]
    S = max(len(s) for s in srcs)
    T = max(len(t) for t in tgts) + 1
    src = np.zeros((len(pairs), S), dtype=np.int64)          # 0 = <pad>
    tgt_in = np.zeros((len(pairs), T), dtype=np.int64)
    tgt_out = np.full((len(pairs), T), -100, dtype=np.int64)  # -100 = ignored by the loss
    for i, (s, t) in enumerate(zip(srcs, tgts)):
        src[i, :len(s)] = s
        tgt_in[i, :len(t) + 1] = [1] + t                       # 1 = <s>
        tgt_out[i, :len(t) + 1] = t + [2]                      # 2 = </s>
    return src, tgt_in, tgt_out


# ---------------------------------------------------------------- train / evaluate -------
def train(model: models.Transformer, pairs: list[tuple[str, str]], src_vocab: Vocab,
          tgt_vocab: Vocab, args: argparse.Namespace, rng: np.random.Generator) -> float:
    """Adam with warmup + cosine decay on random minibatches; returns the last loss."""
    opt = Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98))
    warmup = min(50, args.iters // 10)
    loss_value = float("nan")
    t0 = time.perf_counter()
    for it in range(args.iters):
        idx = rng.choice(len(pairs), size=min(args.batch_size, len(pairs)), replace=False)
        src, tgt_in, tgt_out = batch_arrays([pairs[i] for i in idx], src_vocab, tgt_vocab)
        logits = model(src, tgt_in)                                      # (B, T, V)
        b, t, v = logits.shape
        loss = F.cross_entropy(logits.reshape(b * t, v), tgt_out.reshape(b * t))
        loss.backward()
        clip_grad_norm_(model.parameters(), 1.0)
        lr = cosine_lr(it, args.lr, warmup, args.iters, args.lr / 10)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.step()
        opt.zero_grad()
        loss_value = loss.item()
        if (it + 1) % max(1, args.iters // 10) == 0 or it == 0:
            print(f"iter {it + 1:4d}/{args.iters}: loss {loss_value:.4f}  lr {lr:.2e}  "
                  f"({time.perf_counter() - t0:.1f} s)")
    return loss_value


def evaluate(model: models.Transformer, pairs: list[tuple[str, str]], src_vocab: Vocab,
             tgt_vocab: Vocab, beam_size: int, max_len: int, show: int) -> dict[str, float]:
    """Greedy and beam-search outputs for ``pairs``; prints some, returns exact-match rates."""
    src, _, _ = batch_arrays(pairs, src_vocab, tgt_vocab)
    greedy = model.greedy_decode(src, start_id=1, end_id=2, max_len=max_len)
    beam = model.beam_search(src, start_id=1, end_id=2, max_len=max_len, beam_size=beam_size)
    hits = {"greedy": 0, "beam": 0}
    for i, (s, ref) in enumerate(pairs):
        g, b = tgt_vocab.decode(greedy[i]), tgt_vocab.decode(beam[i])
        hits["greedy"] += g == ref
        hits["beam"] += b == ref
        if i < show:
            marks = ["ok" if out == ref else "WRONG" for out in (g, b)]
            print(f"  {s!r}\n      greedy: {g!r} ({marks[0]})\n      beam:   {b!r} ({marks[1]})"
                  + ("" if g == ref and b == ref else f"\n      want:   {ref!r}"))
    return {k: v / len(pairs) for k, v in hits.items()}


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Build the data, train, decode the held-out set; returns the exact-match rates."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--task", choices=["translate", "copy", "reverse"], default="translate",
                   help="English->Portuguese sentences, or copy/reverse random digit strings")
    p.add_argument("--iters", type=int, default=300, help="training steps")
    p.add_argument("--batch-size", type=int, default=32, help="sentence pairs per step")
    p.add_argument("--lr", type=float, default=2e-3, help="peak Adam learning rate")
    p.add_argument("--d-model", type=int, default=64, help="model width")
    p.add_argument("--heads", type=int, default=4, help="attention heads")
    p.add_argument("--layers", type=int, default=2, help="encoder and decoder layers (each)")
    p.add_argument("--beam-size", type=int, default=4, help="beam width for beam search")
    p.add_argument("--test-fraction", type=float, default=0.15,
                   help="share of the translation corpus held out")
    p.add_argument("--num-held-out", type=int, default=50,
                   help="held-out sequences for --task copy/reverse")
    p.add_argument("--show", type=int, default=8, help="held-out examples to print")
    p.add_argument("--seed", type=int, default=0, help="seeds data split, init and batches")
    args = p.parse_args(argv)
    for name in ("iters", "batch_size", "d_model", "heads", "layers", "beam_size",
                 "num_held_out"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.d_model % args.heads:
        p.error(f"--d-model {args.d_model} must be divisible by --heads {args.heads}")
    if not 0 < args.test_fraction < 1 or not args.lr > 0 or args.show < 0:
        p.error("need 0 < --test-fraction < 1, --lr > 0 and --show >= 0")

    rng = np.random.default_rng(args.seed)
    minigrad.manual_seed(args.seed)
    train_pairs, test_pairs = make_dataset(args.task, args.test_fraction, rng,
                                           args.num_held_out)
    all_pairs = train_pairs + test_pairs
    src_vocab = Vocab([s for s, _ in all_pairs])
    tgt_vocab = Vocab([t for _, t in all_pairs])
    longest = max(max(len(s.split()), len(t.split()) + 1) for s, t in all_pairs)
    max_len = longest + 1
    model = models.Transformer(
        src_vocab_size=len(src_vocab), tgt_vocab_size=len(tgt_vocab), d_model=args.d_model,
        num_heads=args.heads, num_encoder_layers=args.layers, num_decoder_layers=args.layers,
        d_ff=4 * args.d_model, max_len=max_len, dropout=0.0, pad_id=0,
    )
    print(f"task {args.task}: {len(train_pairs)} training pairs, {len(test_pairs)} held out; "
          f"vocabularies {len(src_vocab)} -> {len(tgt_vocab)}; "
          f"{model.num_parameters():,} parameters")
    src, tgt_in, tgt_out = batch_arrays(all_pairs[:1], src_vocab, tgt_vocab)
    print(f"example: {all_pairs[0][0]!r} -> {all_pairs[0][1]!r}\n"
          f"  src {src[0].tolist()}  tgt_in (shifted right) {tgt_in[0].tolist()}  "
          f"tgt_out {tgt_out[0].tolist()}")

    train(model, train_pairs, src_vocab, tgt_vocab, args, rng)
    print(f"\nheld-out {'sentences' if args.task == 'translate' else 'sequences'}:")
    rates = evaluate(model, test_pairs, src_vocab, tgt_vocab, args.beam_size, max_len,
                     args.show)
    print(f"\nexact match on {len(test_pairs)} held-out pairs: greedy {rates['greedy']:.1%}, "
          f"beam search (k={args.beam_size}) {rates['beam']:.1%}")
    return rates


if __name__ == "__main__":
    main()
