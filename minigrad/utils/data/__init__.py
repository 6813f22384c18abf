"""``minigrad.utils.data``: datasets, samplers, collation and the DataLoader, with the names
and behaviour of ``torch.utils.data`` (batches are minigrad Tensors).

One file a concept: ``dataset.py`` (what samples come from), ``sampler.py`` (which keys, in
what order), ``collate.py`` (samples -> a batch), ``fetch.py`` (one batch: read, then
collate), ``dataloader.py`` (the DataLoader), ``loader_iter.py`` (one pass in this process),
``multiprocessing_iter.py`` and ``worker.py`` (one pass with worker processes). A guide with
an example: docs/data_loading.md.
"""

from .collate import collate, default_collate, default_collate_fn_map, default_convert
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)
from .worker import WorkerInfo, get_worker_info

__all__ = [
    "BatchSampler",
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "WorkerInfo",
    "collate",
    "default_collate",
    "default_collate_fn_map",
    "default_convert",
    "get_worker_info",
    "random_split",
]
