"""The kubectl plugin front end."""
