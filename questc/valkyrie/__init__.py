"""Valkyrie's quest format, as its own loader reads it: the INI and localization files, the
names of its second edition content and its board geometry. Shared by the export
(questc.emit.valkyrie) and the import (questc.importer.valkyrie).

Valkyrie is the open-source app second edition players play community quests in; a
quest is a folder: `quest.ini` (the header and the list of the other files), INI files
of components (`[TileX]`, `[DoorX]`, `[TokenX]`, `[SpawnX]`, `[MPlaceX]`, `[EventX]`,
`[CustomMonsterX]`) and `Localization.<Language>.txt` (every text, by key). The modules
here follow Valkyrie's own reading code (src/ of ../shared/engines/valkyrie, Apache-2.0):
`ini` its IniRead, `localization` its DictionaryI18n, `geometry` the placement code of
its Quest.cs; `content` holds the names of its base game content.
"""
