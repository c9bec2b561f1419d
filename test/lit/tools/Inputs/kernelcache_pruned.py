"""A cache hit whose entry another process pruned between the check and the
copy (a full cache, make test's two workers) is a miss, built again, not a
FileNotFoundError (session 41)."""
import os
import shutil
import sys

sys.path.insert(0, sys.argv[1])
import kernelcache  # noqa: E402

work = sys.argv[2]
os.makedirs(work, exist_ok=True)
src = os.path.join(work, "k.cpp")
with open(src, "w") as f:
    f.write("int main() { return 7; }\n")
exe = os.path.join(work, "k")
cmd = ["c++", "-O0", src, "-o", exe]
first = kernelcache.compile(cmd, src, exe, work)
root = kernelcache.cache_root(work)
entries = [os.path.join(root, "exe", e) for e in os.listdir(os.path.join(root, "exe"))
           if not e.startswith(".")]
# Pruned halfway: the log is still there, the binary is gone.
os.remove(os.path.join(entries[0], "out"))
os.remove(exe)
second = kernelcache.compile(cmd, src, exe, work)
print("rebuilt" if second.returncode == 0 and os.path.exists(exe) else "missing",
      first.returncode)
