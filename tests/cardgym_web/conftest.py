"""The browser tests' fixtures: the real app of ``cardgym serve`` under uvicorn in a
thread (:func:`benchmarks.serve_pictures.running_server`, one per test process) and
Chromium driven by Playwright's sync API (one per test module), never a downloaded
browser (``make browser`` installs Debian's; ``$CARDGYM_CHROMIUM`` names another)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from benchmarks.serve_pictures import (
    VIEWPORT,
    WAIT_MS,
    BrowserMissing,
    RunningServer,
    chromium_path,
    launch_chromium,
    running_server,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """A running server (bots without a pause, records in a temporary folder): its base
    URL, its ``Server`` (``app.state.server``) and its records folder."""
    with running_server(tmp_path_factory.mktemp("records")) as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """Chromium, headless. A missing binary fails the test with what to do (it never
    skips).

    Per module, not per session: while Playwright's sync API runs, its event loop is
    the thread's running loop, and ``asyncio.run`` fails in any other test meanwhile
    (pytest tears a module's fixtures down before it runs another module's tests)."""
    missing = None
    try:
        chromium_path()
    except BrowserMissing as error:
        missing = str(error)
    if missing is not None:
        pytest.fail(missing, pytrace=False)
    # Imported here: the server's tests in this folder do not need Playwright.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def new_context(chromium: Browser) -> Iterator[Callable[[], BrowserContext]]:
    """Make browser contexts (each its own storage: another person), all closed after
    the test."""
    made: list[BrowserContext] = []

    def make() -> BrowserContext:
        context = chromium.new_context(viewport=VIEWPORT)
        context.set_default_timeout(WAIT_MS)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()
