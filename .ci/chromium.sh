#!/usr/bin/env bash
# Sourced by .ci/run: makes headless Chromium and its WebDriver server available to the browser
# tests (the HTML pages, opened in a real Chromium) and exports VERDICT_TEST_CHROMEDRIVER.
# Installs Debian's `chromium` and `chromium-driver` with apt-get when `chromedriver` is missing.
# Works as root or as an ordinary user (with sudo for the installation).

verdict_chromium_setup() {
    local driver
    driver=$(command -v chromedriver 2>/dev/null || true)
    if [ -z "$driver" ]; then
        echo "== installing Chromium and ChromeDriver (apt-get)"
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >/dev/null
        driver=$(command -v chromedriver 2>/dev/null || true)
    fi
    [ -n "$driver" ] || { echo "chromium.sh: chromedriver not found" >&2; return 1; }
    export VERDICT_TEST_CHROMEDRIVER="$driver"
    echo "== $("$driver" --version | awk '{print $1, $2}') (VERDICT_TEST_CHROMEDRIVER set)"
}

verdict_chromium_setup || { echo "chromium.sh: could not install Chromium" >&2; return 1 2>/dev/null || exit 1; }
