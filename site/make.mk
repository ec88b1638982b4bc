# site/: the static results page (flot), built from result files into site/dist/.
# Included by the top-level Makefile, which defines ROOT, STAMPS and ensure-debian.

SITE_DIR   := $(ROOT)/site
SITE_STAMP := $(STAMPS)/setup-site-npm
# Where `make site` reads result files: RESULTS/*.json and the result sets RESULTS/reference*/*.json,
# plus the historic run sets RESULTS/historic/<set>/*.json (e.g. the 2011 benchmark).
RESULTS    ?= $(ROOT)/results

SETUP_TARGETS += setup-site
TEST_TARGETS  += test-site
HELP_LINES    += "make site             build site/dist/ (self-contained static page) from results/ (RESULTS=dir to read elsewhere)"
HELP_LINES    += "make charts           make site, insisting on the chart images: every chart as PNG (2400x1350: 1200x675 at 2x) and SVG in site/dist/charts/"
HELP_LINES    += "make test-site        build the site from site/test/fixtures and check it in headless Chromium"

.PHONY: setup-site site charts test-site

# npm packages (flot, jQuery, ajv, playwright-core) plus Debian's chromium for
# the browser tests; playwright never downloads a browser of its own.
setup-site: $(SITE_STAMP)
	@$(call ensure-debian,command -v chromium,chromium)

# npm ci installs exactly package-lock.json; re-run only when it (or package.json) changes.
$(SITE_STAMP): $(SITE_DIR)/package-lock.json $(SITE_DIR)/package.json | $(STAMPS)
	@command -v node >/dev/null || { echo "site needs Node >= 18 with npm: install nodejs and npm" >&2; exit 1; }
	cd $(SITE_DIR) && npm ci --no-audit --no-fund
	@touch $@

SITE_BUILD  = node $(SITE_DIR)/tools/build-site.js --results $(RESULTS) --out $(SITE_DIR)/dist
SITE_CHARTS = node $(SITE_DIR)/tools/render-charts.js --site $(SITE_DIR)/dist

# The pages need only the npm packages; their chart images (PNG and SVG, drawn
# by the pages' own code in headless chromium) follow when chromium is there,
# and `make charts` installs it and insists on them.
site: $(SITE_STAMP)
	$(SITE_BUILD)
	@if [ -n "$${CHROMIUM:-}" ] || command -v chromium >/dev/null 2>&1; then $(SITE_CHARTS); \
	else echo "site: chart images skipped: chromium not found (make charts installs it and draws them)"; fi

charts: setup-site
	$(SITE_BUILD)
	$(SITE_CHARTS)

# Unit tests beside the code they test (the 2011 converter's beside it in
# results/historic/), then the browser tests; files are named explicitly
# because node --test would also run the helpers in test/. Two files at a time:
# a browser test mostly waits on Chromium's rendering, and node --test runs
# one file at a time on a 2-core machine (its default: cores - 1).
test-site: setup-site
	cd $(SITE_DIR) && node --test --test-concurrency=2 tools/*.test.js src/js/*.test.js ../results/historic/*.test.js test/*.test.js
