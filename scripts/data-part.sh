#!/usr/bin/env bash
# Adds a finished datagen run to data/ as a new part: converted to the chained format (if it
# is not already), checked, and its manifest line appended (docs/datagen.md, "Committed data").
# A part is never rewritten: an existing name is refused.
#
# usage: scripts/data-part.sh RUN.bin PART COMMIT BENCH NET SEED NODES OPENINGS
#   e.g. scripts/data-part.sh ~/chuhe-data/n8-r7-a.bin r7-a.bin b3b1c7e 1296625 \
#          net8:76826534b40093a9 3701 8000 "balanced.txt +4 random, keep all"
# env: CHUHE  the binary (default target/release/chuhe)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CHUHE="${CHUHE:-$ROOT/target/release/chuhe}"
[ $# -eq 8 ] || { sed -n 6,8p "$0" >&2; exit 2; }
RUN=$1 PART=$2
shift 2
DEST="$ROOT/data/$PART"
[ ! -e "$DEST" ] || { echo "data-part: $DEST exists (parts are never rewritten)" >&2; exit 2; }
mkdir -p "$ROOT/data"
# A stopped run (killed, or still going) is taken to its last whole game.
"$CHUHE" datagen --convert "$RUN" --out "$DEST" --version 2 --unfinished
SIZE=$(stat -c %s "$DEST")
[ "$SIZE" -le $((20 * 1024 * 1024)) ] || { echo "data-part: $DEST is $SIZE bytes, over 20 MB: split the run" >&2; rm "$DEST"; exit 2; }
if [ ! -f "$ROOT/data/manifest.tsv" ]; then
    printf '# Training data parts (docs/datagen.md, "Committed data"); append only.\n' > "$ROOT/data/manifest.tsv"
    printf 'part\tcommit\tbench\tnet\tseed\tnodes\topenings\tgames\tpositions\tbytes\tcrc32\n' >> "$ROOT/data/manifest.tsv"
fi
# --stats of the part alone, before its line exists, would refuse it: read it from a copy.
TMP=$(mktemp -d)
cp "$DEST" "$TMP/$PART"
LINE=$("$CHUHE" datagen --stats "$TMP/$PART" | sed -n "s|^  part $TMP/$PART: ||p")
rm -r "$TMP"
read -r _ GAMES _ POSITIONS _ BYTES _ CRC <<<"$LINE"
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$PART" "$1" "$2" "$3" "$4" "$5" "$6" \
    "$GAMES" "$POSITIONS" "$BYTES" "$CRC" >> "$ROOT/data/manifest.tsv"
"$CHUHE" datagen --stats "$ROOT/data" | head -2
