"""Test doubles that fake the network at the transport: real sockets, scripted answers."""
