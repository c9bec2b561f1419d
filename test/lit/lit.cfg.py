# lit configuration for tilepipe's tile-IR tests.
import os
import lit.formats

config.name = "tilepipe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".json", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilepipe_obj_root, "test", "lit")

path = os.pathsep.join([config.tilepipe_tools_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
config.substitutions.append(("%tilepipe_src", config.tilepipe_src_root))
config.substitutions.append(("%examples", os.path.join(config.tilepipe_src_root, "examples")))
