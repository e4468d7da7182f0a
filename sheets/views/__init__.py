"""Sheet pages and the htmx fragments that edit them in place.

Every view fetches the sheet through sheets.permissions first, full page or
fragment alike. POSTs answer htmx with the fragment to swap (200), the
fragment with its errors beside the fields (422), or the row as it is now
with the other person's values and a button to re-apply yours (409). Without
JavaScript the same forms post normally and come back to the page.

sheet: the sheet as a whole (list, create, import, show, export, delete, header,
scores, counters); traits: its groups and traits; common: what they share.
"""
