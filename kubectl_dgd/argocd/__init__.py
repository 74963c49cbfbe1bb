"""The Argo CD config-management plugin front end."""
