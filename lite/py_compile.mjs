// Compile to bytecode, with the site's own Pyodide run in Node (the exact Python of the browser,
// so the bytecode's magic number is the one it loads), the modules a kernel imports when it
// starts, inside the zips that hold them (wheels, Python's standard library):
//   node lite/py_compile.mjs PYODIDE_DIR PACKAGES MODULES ZIP...
// loads PACKAGES (comma-separated, from PYODIDE_DIR's lock), imports MODULES (comma-separated)
// and rewrites each ZIP in place (lite/py_compile_zips.py says what it writes; lite/build.py
// runs this).
import { readFileSync } from "node:fs";
import path from "node:path";

const [dir, packages, modules, ...zips] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(dir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: path.resolve(dir) + "/", stdout: console.log });
await pyodide.loadPackage(packages.split(","), { messageCallback: () => {} });
pyodide.FS.mkdir("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
pyodide.runPython(readFileSync(new URL("py_compile_zips.py", import.meta.url), "utf8"));
pyodide.globals.get("main")(
  modules.split(","),
  zips.map((zip) => "/host" + path.resolve(zip)),
);
