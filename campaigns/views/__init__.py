"""Server-rendered pages: thin doors into campaigns.selectors (reads, cut per
viewer) and campaigns.services (writes). Errors: NotFound -> 404, Forbidden ->
403 page, DomainError -> the form's field errors (status 400, nothing written)."""
