"""Validation as the API server and the Dynamo operator apply it: schema, CEL, webhook, plus lint."""
