"""Muster's benchmarks: `make bench` (see benchmarks/README.md). Not part of the test suite."""
