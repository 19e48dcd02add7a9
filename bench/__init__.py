"""The benchmarks, each run as `python -m bench.<name>` from the repository's root; each prints
its figures (docs/performance.md says what they measure). Private `_` modules are their
shared parts: one fake Discord (`_fake_discord`) and its rate limits (`_rest_limits`)."""
