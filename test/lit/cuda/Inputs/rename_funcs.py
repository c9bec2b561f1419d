"""Copies the one function of a materialized module once per name given,
each renamed (names quoted as MLIR symbols), into one module on stdout."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"func\.func @([A-Za-z_][\w$.]*)\(", text)
old = m.group(1)
start = text.rfind("\n", 0, m.start()) + 1
# The function ends at the first line that closes it at its own indent.
indent = text[start:m.start()]
end = text.index("\n" + indent + "}\n", m.start()) + len(indent) + 2
func = text[start:end]
copies = []
for name in sys.argv[2:]:
    quoted = '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'
    copies.append(func.replace("@" + old + "(", "@" + quoted + "(", 1))
sys.stdout.write(text[:start] + "\n".join(copies) + text[end:])
