#!/usr/bin/env bash
# Builds the documentation site (mkdocs.yml, docs/) with `mkdocs build --strict`: a broken link or
# anchor, or a page missing from the navigation, fails it. The tools of requirements-docs.txt are
# installed from PyPI into a virtualenv on first use.
#
#   .ci/docs-site.sh              # builds into target/site
#   .ci/docs-site.sh serve        # serves it at http://localhost:8000/ while you edit
#
# DOCS_VENV   where the tools are installed (default ~/.cache/vfps/mkdocs-<hash of the pins>)
# Needs python3 with venv (installed with apt-get when missing, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

pins=$(sha256sum requirements-docs.txt | cut -c1-12)
venv=${DOCS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/vfps/mkdocs-$pins}
if [ ! -x "$venv/bin/mkdocs" ]; then
  python_venv "$venv" -r requirements-docs.txt
fi

export NO_MKDOCS_2_WARNING=1
if [ "${1:-}" = serve ]; then
  exec "$venv/bin/mkdocs" serve --strict
fi
"$venv/bin/mkdocs" build --strict --site-dir target/site
echo "docs-site: built target/site"
