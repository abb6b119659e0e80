#!/usr/bin/env bash
# `make web`: builds the static page into web/dist/:
#   index.html, app.js, style.css   (web/, as written)
#   wordhoard/                      the npm package (scripts/npm.sh: crates/web/js and its wasm)
#   enable1.hoard                   (the index the page fetches)
#   *.gz of the large files         (sent to browsers that accept gzip)
# then prints what a visitor downloads, raw and gzip-compressed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lists.sh
scripts/npm.sh >/dev/null
cargo build --release --locked -p wordhoard-cli

dist=web/dist
rm -rf "$dist.tmp"
mkdir -p "$dist.tmp"
cp -r target/npm/wordhoard "$dist.tmp/wordhoard"
cp web/index.html web/app.js web/style.css "$dist.tmp/"
# The index the page opens: reuse the last one when the lists and binary
# have not changed since.
if [ -f "$dist/enable1.hoard" ] && [ "$dist/enable1.hoard" -nt target/release/wordhoard ] &&
   [ "$dist/enable1.hoard" -nt "$enable1" ]; then
  cp "$dist/enable1.hoard" "$dist.tmp/enable1.hoard"
else
  # The page asks no `find` pattern: its index leaves the endings out.
  target/release/wordhoard build "$enable1" "${common[@]}" --name enable1 --no-endings \
    -o "$dist.tmp/enable1.hoard" >/dev/null
fi
# Compressed copies, which web/serve.mjs sends to browsers that take gzip
# (a static host can serve them the same way).
for f in enable1.hoard wordhoard/wasm/wordhoard_web_bg.wasm wordhoard/wasm/wordhoard_web.js wordhoard/index.js app.js; do
  gzip -9 -k -n "$dist.tmp/$f"
done
rm -rf "$dist"
mv "$dist.tmp" "$dist"

printf '%-38s %12s %12s\n' "web/dist" "bytes" "gzip -9"
total=0 ztotal=0
for f in index.html app.js style.css wordhoard/index.js wordhoard/wasm/wordhoard_web.js wordhoard/wasm/wordhoard_web_bg.wasm enable1.hoard; do
  n=$(wc -c < "$dist/$f")
  z=$(gzip -9 -c "$dist/$f" | wc -c)
  total=$((total + n)) ztotal=$((ztotal + z))
  printf '%-38s %12d %12d\n' "$f" "$n" "$z"
done
printf '%-38s %12d %12d\n' "total" "$total" "$ztotal"
echo "make serve-web serves it at http://127.0.0.1:${WEB_PORT:-8080}/"
