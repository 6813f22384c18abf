"""The smallest decoder-only transformer that learns something: StatQuest's toy, in minigrad.

    python examples/tiny_decoder.py

The vocabulary has five tokens, ``what is statquest awesome <EOS>``, and the training set
two sequences (seed 004): "what is statquest <EOS> awesome <EOS>" and "statquest is what
<EOS> awesome <EOS>". The model reads a prompt, then a separator ``<EOS>``, and must answer
``awesome <EOS>`` either way round.

The model has 2-dimensional embeddings and one attention head, 37 parameters in all:

    x = Embedding(5, 2)(ids) + PE            (B, T, 2)   sinusoidal positions
    a = softmax(mask(q k^T / sqrt(2))) v      (B, T, 2)   q, k, v = x Wq^T, x Wk^T, x Wv^T
    logits = Linear(2, 5)(x + a)              (B, T, 5)   residual, then the output layer

trained with teacher forcing (inputs = the sequence, labels = the sequence shifted left by
one) and Adam (lr 0.1) on cross-entropy. Then it answers greedily: the prompt ``what is
statquest <EOS>`` is extended one token at a time by the likeliest next token until
``<EOS>``.
"""

from __future__ import annotations

import argparse

import numpy as np

import minigrad
from minigrad import Tensor, nn
from minigrad.nn import functional as F

VOCAB = ["what", "is", "statquest", "awesome", "<EOS>"]
ID = {w: i for i, w in enumerate(VOCAB)}
EOS = ID["<EOS>"]

# Teacher forcing: the label at each position is the next token of the sequence.
SEQUENCES = [
    ["what", "is", "statquest", "<EOS>", "awesome", "<EOS>"],
    ["statquest", "is", "what", "<EOS>", "awesome", "<EOS>"],
]
INPUTS = np.array([[ID[w] for w in s[:-1]] for s in SEQUENCES], dtype=np.int64)   # (2, 5)
LABELS = np.array([[ID[w] for w in s[1:]] for s in SEQUENCES], dtype=np.int64)    # (2, 5)

D_MODEL, MAX_LEN = 2, 6


class TinyDecoder(nn.Module):
    """Embedding + positions, one masked self-attention head, a residual, an output layer."""

    def __init__(self, vocab_size: int = len(VOCAB), d_model: int = D_MODEL,
                 max_len: int = MAX_LEN) -> None:
        super().__init__()
        self.we = nn.Embedding(vocab_size, d_model)
        self.pe = nn.PositionalEncoding(d_model, max_len)
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.fc = nn.Linear(d_model, vocab_size)

    def forward(self, ids: np.ndarray) -> Tensor:
        """ids (B, T) -> logits (B, T, vocab): position t predicts token t + 1."""
        x = self.pe(self.we(ids))                                   # (B, T, d)
        q, k, v = self.W_q(x), self.W_k(x), self.W_v(x)             # (B, T, d) each
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, T, d)
        return self.fc(x + a)                                       # (B, T, V)


def train(model: TinyDecoder, steps: int, lr: float, log_every: int) -> float:
    """Full-batch Adam on the two sequences; returns the final loss."""
    opt = minigrad.optim.Adam(model.parameters(), lr=lr)
    b, t = INPUTS.shape
    loss_value = float("nan")
    for step in range(1, steps + 1):
        logits = model(INPUTS)                                       # (2, 5, 5)
        loss = F.cross_entropy(logits.reshape(b * t, len(VOCAB)), LABELS.reshape(b * t))
        loss.backward()
        opt.step()
        opt.zero_grad()
        loss_value = loss.item()
        if step % log_every == 0 or step == 1:
            print(f"step {step:3d}: loss {loss_value:.4f}")
    return loss_value


def answer(model: TinyDecoder, prompt: list[str], max_len: int = MAX_LEN) -> list[str]:
    """Greedy continuation of ``prompt`` until <EOS> (or the context is full)."""
    ids = [ID[w] for w in prompt]
    out: list[str] = []
    model.eval()
    with minigrad.no_grad():
        while len(ids) < max_len:
            logits = model(np.array([ids], dtype=np.int64))
            probs = minigrad.softmax(logits[:, -1, :], axis=-1).data[0]
            nxt = int(probs.argmax())
            shown = ", ".join(f"{w} {p:.3f}" for w, p in zip(VOCAB, probs))
            print(f"  after {' '.join(VOCAB[i] for i in ids)!r}: {shown}")
            ids.append(nxt)
            out.append(VOCAB[nxt])
            if nxt == EOS:
                break
    return out


def main(argv: list[str] | None = None) -> list[str]:
    """Train, then answer 'what is statquest <EOS>'; returns the generated tokens."""
    p = argparse.ArgumentParser(description="StatQuest's toy decoder-only transformer.")
    p.add_argument("--steps", type=int, default=100, help="Adam steps on the full batch")
    p.add_argument("--lr", type=float, default=0.1, help="Adam learning rate (the notebook's)")
    p.add_argument("--seed", type=int, default=42, help="seed for the initial weights")
    args = p.parse_args(argv)
    if args.steps < 1 or not args.lr > 0:
        p.error("--steps must be >= 1 and --lr > 0")

    minigrad.manual_seed(args.seed)
    model = TinyDecoder()
    n = sum(prm.data.size for prm in model.parameters())
    print(f"vocabulary: {' '.join(VOCAB)}; {n} parameters")
    for s in SEQUENCES:
        print("training sequence:", " ".join(s))
    train(model, args.steps, args.lr, log_every=max(1, args.steps // 5))

    prompt = ["what", "is", "statquest", "<EOS>"]
    print(f"\nprompt: {' '.join(prompt)}")
    tokens = answer(model, prompt)
    print(f"\n{' '.join(prompt)} -> {' '.join(tokens)}")
    return tokens


if __name__ == "__main__":
    main()
