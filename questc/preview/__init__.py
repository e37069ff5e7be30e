"""`questc preview`: a live page of one quest in the browser (a thin layer over questc.api).

session.Preview  the quest re-checked on each change, its last good scene kept, sight answered
scene            a checked quest in; the page's data out (cells, areas, doors, waves, diagnostics)
drawing          the seam to the printed sheet's map drawing (the page never paints the map)
server           the read-only HTTP server on 127.0.0.1, with server-sent events
watch            watchfiles on the quest and its packs
export           the page as one self-contained HTML file
static/          the page, its script and its style
"""
