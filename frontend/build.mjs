// Copies the pinned front-end libraries into the Django static tree.
// The copies are committed so that deploying the Python app never needs Node.
//
// The `//# sourceMappingURL=` comment is stripped: the maps are not shipped, and
// ManifestStaticFilesStorage (collectstatic with DEBUG off) fails on a reference to a
// file that is not there (MissingFileError: vendor/chart.umd.js.map).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dest = join(here, "..", "zfsplanner", "static", "vendor");
mkdirSync(dest, { recursive: true });
// htmx itself is served by django-htmx ({% htmx_script %}); axe-core is for the browser
// tests only and goes next to them, never into the static tree.
const testVendor = join(here, "..", "tests", "e2e", "vendor");
mkdirSync(testVendor, { recursive: true });
const files = [
  ["node_modules/chart.js/dist/chart.umd.js", join(dest, "chart.umd.js")],
  ["node_modules/@picocss/pico/css/pico.min.css", join(dest, "pico.min.css")],
  ["node_modules/axe-core/axe.min.js", join(testVendor, "axe.min.js")],
];
const sourceMap = /^\s*\/[/*][#@]\s*sourceMappingURL=\S*(\s*\*\/)?\s*$/gm;
for (const [src, target] of files) {
  const text = readFileSync(join(here, src), "utf8").replace(sourceMap, "").replace(/\n+$/, "\n");
  writeFileSync(target, text);
  console.log(`copied ${src} -> ${target} (source map reference removed)`);
}
