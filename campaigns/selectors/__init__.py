"""Reads for pages, API, exports and sheets: always cut to what the viewer may see.

Pages and API call these and render what they get; neither filters by itself. One module per
subject; import from the module (``from campaigns.selectors.history import history``).
"""
