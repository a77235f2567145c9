# Riposte: `make serve` builds and serves the site, `make test` runs every test.
# Both set up what they need on a fresh machine (Python 3.11+, Node 20+, make).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
FIREFOX_TESTS := PYTHON=$(PY) node --test tests/webkit_firefox/firefox.test.mjs tests/webkit_firefox/live-firefox.test.mjs tests/webkit_firefox/remote-firefox.test.mjs
# The shipped site, _site/, and in the same run its test build, _site-test/ (the page's test
# hooks compiled in: web/infra/hooks.js), which the browser tests and the benchmarks serve.
BUILD_SITE := $(PY) tools/build_site.py --test-hooks
LINT := $(PY) -m ruff check engine tests bench tools web/boot/bridge.py web/boot/bridge_hooks.py web/boot/riposte_stdlib.py web/boot/riposte_pyscript.py \
	&& $(PY) -m mypy && node_modules/.bin/eslint . && $(PY) tools/check_history.py
# When this make started: make test's total counts the set-up too.
STARTED := $(shell date +%s)

.PHONY: all setup site serve test test-engine test-browser test-webkit test-firefox test-long test-net lint bench audit screenshots mutants clean

all: test

$(VENV)/.installed: requirements-dev.txt pyproject.toml
	@echo "== installing the Python tools into $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# npm's cache is trusted for the pinned versions (package-lock.json holds their checksums).
node_modules/.installed: package.json package-lock.json
	@echo "== installing the npm packages into node_modules"
	npm ci --no-audit --no-fund --prefer-offline
	touch $@

# The Python tools and the npm packages, installed side by side on a fresh machine: each
# waits on the disk or the registry part of the time (about 15 s instead of 30 here).
setup:
	@$(MAKE) --no-print-directory -s -j2 $(VENV)/.installed node_modules/.installed

site: setup
	$(BUILD_SITE)

serve: site
	$(PY) tools/serve.py --port $(PORT)

# ruff, mypy --strict, ESLint, and no comment or doc that cites an issue number (tools/check_history.py).
lint: setup
	$(LINT)

test-engine: $(VENV)/.installed
	$(PY) -m pytest -m "not browser"

test-browser: site
	$(PY) tools/find_chromium.py --check
	$(PY) -m pytest -m "browser and not long and not net" -n $(TEST_WORKERS) --dist loadfile
	$(FIREFOX_TESTS)

# Stages: lint beside the site, then pytest (the engine in CPython, Chromium's tests/browser/,
# WebKitGTK's tests/webkit_firefox/test_webkit.py) and beside it, one after the other, Firefox
# over WebDriver BiDi (node --test: docs/BROWSERS.md) and the live table across NATs
# (tests/net/, make test-net: root's network namespaces; elsewhere each of its tests is
# skipped saying why). Those two wait on the network and on real timers most of their time
# (ICE's, a reply's delay): together about 7 min of a pytest stage of 11, for about two minutes
# of CPU (docs/TESTING.md, « Where the time goes »). Stages run beside another (`aside`, in
# the order given) have their output said once that other is done (`told`). Each stage runs
# even when one before it failed (but for the site, which the browsers need): the failed
# stages are listed together at the end, with the total time, and make test exits non-zero
# if any failed. Three pytest workers (pytest-xdist), each file whole in one worker (its
# tests in order, one browser per worker): on two cores, a third keeps them busy while a
# test waits on WebRTC or a second page (docs/TESTING.md); the tests marked `long` (a
# freeze in real time) are make test-long's.
TEST_WORKERS ?= 3
test: setup
	@failed=""; beside=$$(mktemp -d); \
	stage() { echo "== make test: $$1"; since=$$(date +%s); eval "$$2" || failed="$$failed $$1"; \
	  echo "== make test: $$1 took $$(( $$(date +%s) - since )) s"; }; \
	aside() { ( failed=""; first=$$1; while [ $$# -gt 1 ]; do stage "$$1" "$$2"; shift 2; done > $$beside/$$first.log 2>&1; \
	  echo "$$failed" > $$beside/$$first.failed ) & }; \
	told() { wait; cat $$beside/$$1.log; failed="$$failed$$(cat $$beside/$$1.failed)"; }; \
	aside lint '$(LINT)'; \
	stage site '$(BUILD_SITE)'; \
	told lint; \
	case "$$failed" in *site*) echo "== make test: no site, so neither pytest, Firefox nor the NAT rig ran"; failed="$$failed pytest firefox net";; \
	*) aside firefox '$(FIREFOX_TESTS)' net '$(PY) -m pytest -p no:cacheprovider -m net tests/net'; \
	   stage pytest '$(PY) tools/find_chromium.py --check && $(PY) -m pytest -m "not long and not net" -n $(TEST_WORKERS) --dist loadfile --durations=20'; \
	   told firefox;; esac; \
	rm -rf $$beside; \
	elapsed=$$(( $$(date +%s) - $(STARTED) )); \
	echo "== make test: $$(( elapsed / 60 )) min $$(( elapsed % 60 )) s in all"; \
	if [ -n "$$failed" ]; then echo "== make test: FAILED:$$failed"; exit 1; fi; \
	echo "== make test: every stage passed"

test-webkit: site
	$(PY) -m pytest -m webkit

test-firefox: site
	$(FIREFOX_TESTS)

# The live table at a distance (tests/net/): phones in network namespaces, each behind its own
# NAT (nftables), coturn for STUN and TURN (docs/LIVE-TABLE.md, « At a distance »). Root only: the
# namespaces are root's; elsewhere its tests are skipped, each saying why. One worker: the
# rig's names and coturn's port are the machine's.
test-net: site
	$(PY) tools/find_chromium.py --check
	$(PY) -m pytest -p no:cacheprovider -m net tests/net

# The long profiles (figures in docs/RELIABILITY.md): 10,000 Hypothesis sequences, 1,000
# sequences over the list of fights (tests/test_fight_list.py), and 100,000 malformed
# commands through engine.apply and through the page's bridge; then the tests marked `long`,
# which make test leaves out: the live table's phones asleep 5, 20 and 40 s in real time,
# with WebRTC's own timers (make test runs the same test with the table's timings scaled).
test-long: site
	$(PY) tools/find_chromium.py --check
	HYPOTHESIS_PROFILE=long FUZZ_COMMANDS=100000 BRIDGE_FUZZ_COMMANDS=100000 \
		$(PY) -m pytest -s -p no:cacheprovider --hypothesis-show-statistics tests/test_properties.py tests/test_fuzz.py \
		tests/test_fight_list.py tests/browser/test_faults.py::test_malformed_commands_through_the_bridge_change_nothing
	$(PY) -m pytest -p no:cacheprovider -m long tests/browser

# The README's screenshots (docs/screenshot-*.png), taken by the end-to-end tests that
# reach those screens; without RIPOSTE_SCREENSHOTS they go to a tmp folder (make test).
screenshots: site
	$(PY) tools/find_chromium.py --check
	RIPOSTE_SCREENSHOTS=$(CURDIR)/docs $(PY) -m pytest -q -p no:cacheprovider \
		tests/browser/test_fight.py::test_a_whole_fight_by_tapping tests/browser/test_keep.py::test_dark_mode_follows_the_system \
		tests/browser/test_cockpit.py::test_a_round_of_six_fighters_from_the_board tests/browser/test_cockpit.py::test_eight_fighters_fit_on_one_screen \
		tests/browser/test_live.py::test_pairing_by_link_and_code_then_both_players_see_every_command \
		tests/browser/test_live.py::test_a_players_die_and_interruption_reach_the_game_master \
		tests/browser/test_live_remote.py::test_a_player_at_home_replies_by_a_link_opened_in_a_new_tab_or_pasted \
		"tests/browser/test_live_plays.py::test_a_round_played_from_the_players_phones[confirm]" \
		tests/browser/test_board.py::test_twelve_fighters_keep_nine_in_view_with_the_acting_card_and_a_status_message \
		tests/browser/test_board.py::test_conditions_with_an_end_show_as_badges_and_end_with_their_round \
		tests/browser/test_wide.py::test_the_board_and_its_companions_use_the_screen \
		tests/browser/test_wide.py::test_the_players_view_is_a_big_screen

# Mutation testing of engine/ with mutmut (requirements-mutants.txt; not part of make test:
# slow, see docs/ENGINE.md). A fresh run each time (mutants/ is mutmut's scratch copy), the
# CPython tests only, the derandomized Hypothesis profile `mutants`, at most two workers;
# prints the score and the surviving mutants (docs/ENGINE.md, "Mutation testing").
MUTANTS_JOBS ?= 2

$(VENV)/.mutants: $(VENV)/.installed requirements-mutants.txt
	$(PY) -m pip install --quiet -r requirements-mutants.txt
	touch $@

mutants: $(VENV)/.mutants
	rm -rf mutants && mkdir mutants
	HYPOTHESIS_PROFILE=mutants $(VENV)/bin/mutmut run --max-children $(MUTANTS_JOBS) > mutants/run.log 2>&1 \
		|| { tail -40 mutants/run.log; exit 1; }
	$(PY) tools/mutation_score.py

# Lighthouse on the built site, phone profile: prints the scores (not part of make test).
audit: site
	$(PY) tools/audit.py

# Benchmarks print figures (never asserted): the engine in CPython, then the page in
# Chromium against the floor page (docs/PERFORMANCE.md, chart docs/performance.png), then the
# live table with six players (docs/LIVE-TABLE.md, « Figures »). What they print is also written to
# docs/bench.txt, under a line saying when, on what machine and under what load: the figures
# the README and the docs quote come from that file (tests/test_docs_figures.py). Progress
# lines (stderr) are not kept; the benches print unbuffered, so the run shows as it goes. A
# failed bench is said on the file's last line.
bench: site
	@export PYTHONUNBUFFERED=1; { echo "== make bench, $$(date -u '+%Y-%m-%d %H:%M UTC'), $$(git rev-parse --short HEAD 2>/dev/null), $$(nproc) cores, $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load average$$(uptime | sed 's/.*load average[s]*://')"; \
	  $(PY) bench/engine_bench.py && echo && $(PY) bench/labo_bench.py && echo && $(PY) bench/page_bench.py && echo && $(PY) bench/live_bench.py \
	  || echo "== make bench: FAILED"; } | tee docs/bench.txt
	@! grep -q '^== make bench: FAILED' docs/bench.txt

clean:
	rm -rf _site _site-test build dist mutants
