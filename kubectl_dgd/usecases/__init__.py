"""Orchestration shared by both front ends: read inputs, call the core, return view models."""
