// Test compositor: built on libwayland-server.
