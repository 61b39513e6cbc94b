// Pure parsing helpers for BSD fortune (strfile) text files, one job a file under fortune/. No
// I/O here so that every rule can be unit-tested on its own; build-corpus.ts does the
// downloading, ordering and id bookkeeping (it imports this file as `parse`).

export { type Split, splitAttribution } from './fortune/attribution.js'
export { type AuthorResult, parseAuthor } from './fortune/author.js'
export { asciiQuotes, normaliseBody, stripOuterQuotes, verseBlocks } from './fortune/body.js'
export { cleanControls, stripOverstrike } from './fortune/controls.js'
export { decodeText, fixMojibake, splitEntries } from './fortune/decode.js'
export { dedupKey, normKey } from './fortune/keys.js'
export { isDialogue, letterRatio, looksLikeArt } from './fortune/kinds.js'
