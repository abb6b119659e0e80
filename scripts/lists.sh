# Sourced by scripts/demo.sh and scripts/web.sh (from the repository root):
# sets $enable1 to the enable1 list (found, or downloaded, by wordlist.sh;
# exits when it cannot be had) and $common to `--common POPULAR` when
# popular.txt is found, else to nothing.
enable1=$(scripts/wordlist.sh enable1.txt)
common=()
if popular=$(scripts/wordlist.sh popular.txt 2>/dev/null); then
  common=(--common "$popular")
fi
