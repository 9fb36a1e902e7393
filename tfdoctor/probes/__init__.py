"""Probes: read the world into typed facts. They never judge, never print, never raise."""
