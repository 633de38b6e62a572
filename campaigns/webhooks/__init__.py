"""Club webhooks: a club's public events posted, signed, to the URLs its organizers set."""
