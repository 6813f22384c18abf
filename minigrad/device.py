"""Devices: minigrad runs on the CPU only, and says so when another device is asked for.

PyTorch code passes ``device=`` to factories, ``.to(device)`` and ``Module.to``; each of those
calls :func:`check_device`, so a CUDA request fails at once with a clear error instead of
silently computing on the CPU.
"""

from __future__ import annotations

from typing import Any


class Device:
    """A device name (``x.device``); minigrad has one, the CPU. Compares equal to ``"cpu"``."""

    __slots__ = ("type",)

    def __init__(self, type: str = "cpu") -> None:
        check_device(type)
        self.type = "cpu"

    def __repr__(self) -> str:
        return "device(type='cpu')"

    def __str__(self) -> str:
        return "cpu"

    def __eq__(self, other: object) -> bool:
        return str(other) == "cpu"

    __hash__ = object.__hash__


_DEVICE_NAMES = ("cpu", "cuda", "mps", "xpu", "xla", "meta", "hip", "ipu", "npu")


def is_device(x: Any) -> bool:
    """True for a device name (``"cuda:0"``) or a device object (``torch.device``)."""
    if isinstance(x, str):
        return x.split(":")[0] in _DEVICE_NAMES
    return isinstance(x, Device) or type(x).__name__ == "device"


class DeviceError(ValueError, RuntimeError):
    """A device other than the CPU was asked for. A ValueError (a bad argument value) that is
    also a RuntimeError, the type PyTorch raises for a device it cannot use, so code catching
    either keeps working."""


def check_device(device: Any) -> None:
    """The one device check of minigrad (factories' ``device=``, ``Tensor.to``, ``Module.to``):
    accept None, ``"cpu"``, ``"cpu:N"`` and device objects whose ``type`` is ``"cpu"``
    (minigrad's own, ``torch.device("cpu")``); anything else raises a DeviceError naming it
    (minigrad has no accelerators)."""
    if device is None:
        return
    name = str(getattr(device, "type", device)) if not isinstance(device, str) else device
    kind, _, index = name.partition(":")
    if kind == "cpu" and (not index or index.isdigit()):
        return
    raise DeviceError(f"minigrad runs on the CPU: device {str(device)!r} is not available")


CPU = Device()
