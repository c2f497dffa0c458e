"""Benchmark scripts: throughput and tournaments."""
