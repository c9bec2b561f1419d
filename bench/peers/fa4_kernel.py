"""FlashAttention-4's forward kernel as the flash-attn-4 package ships it
(imported, not copied), compiled for sm_100a without a GPU (bench/peers).

    python fa4_kernel.py OUTDIR

Head dim 128, bf16, non-causal. The package compiles through CuTe DSL when
its interface is called; under torch's FakeTensorMode nothing is allocated
and the launch is skipped. CUTE_DSL_KEEP leaves the cubin in OUTDIR. Its
persistent scheduler asks the driver for the SM count, which a machine
without a GPU has not: FLASH_ATTENTION_NUM_SMS answers instead (148, B200),
and that count is compiled into the kernel."""
import os
import shutil
import sys

out = os.path.abspath(sys.argv[1])
os.makedirs(out, exist_ok=True)
os.environ.setdefault("FLASH_ATTENTION_ARCH", "sm_100a")
os.environ.setdefault("CUTE_DSL_ARCH", "sm_100a")
os.environ.setdefault("FLASH_ATTENTION_NUM_SMS", "148")
os.environ["CUTE_DSL_KEEP"] = "ptx,cubin"
dump = os.path.join(out, "fa4-dump")
os.makedirs(dump, exist_ok=True)
os.environ["CUTE_DSL_DUMP_DIR"] = dump

import cutlass.utils  # noqa: E402
import flash_attn.cute.tile_scheduler as scheduler  # noqa: E402
import torch  # noqa: E402
from flash_attn.cute import flash_attn_func  # noqa: E402
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402


class SmCount:
    """cutlass.utils.HardwareInfo without a driver: the SM count it reports."""

    def __init__(self, device_id=0):
        self.device_id = device_id

    def get_device_multiprocessor_count(self):
        return int(os.environ["FLASH_ATTENTION_NUM_SMS"])

    def get_max_active_clusters(self, cluster_size, stream=None):
        return int(os.environ["FLASH_ATTENTION_NUM_SMS"]) // cluster_size


try:
    cutlass.utils.HardwareInfo()
except Exception:  # no libcuda here
    cutlass.utils.HardwareInfo = SmCount
    scheduler.HardwareInfo = SmCount

with FakeTensorMode():
    q, k, v = (torch.empty(4, 8192, 16, 128, dtype=torch.bfloat16, device="cuda") for _ in range(3))
    flash_attn_func(q, k, v, causal=False)
cubins = sorted(os.path.join(r, f) for r, _, fs in os.walk(dump) for f in fs if f.endswith(".cubin"))
if not cubins:
    sys.exit("fa4_kernel: no cubin was kept")
shutil.copy(cubins[-1], os.path.join(out, "fa4.cubin"))
print(os.path.join(out, "fa4.cubin"))
