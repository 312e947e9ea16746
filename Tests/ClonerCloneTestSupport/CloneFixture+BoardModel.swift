extension CloneFixture {
    /// Boards with ordered columns of ordered cards, labels shared many-to-many, an inverse-less
    /// `next` between cards, and a self-referential folder tree: the identity, cycle and depth
    /// cases a clone and an export walk must agree on.
    package static let boardModel = """
        { "entities": [
          { "name": "Board", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "columns", "destination": "Column", "toMany": true, "ordered": true, "inverse": "board", "deleteRule": "cascade" },
              { "name": "labels", "destination": "Label", "toMany": true, "inverse": "board", "deleteRule": "cascade" } ] },
          { "name": "Column", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "board", "destination": "Board", "inverse": "columns" },
              { "name": "cards", "destination": "Card", "toMany": true, "ordered": true, "inverse": "column", "deleteRule": "cascade" } ] },
          { "name": "Card", "attributes": [ { "name": "title", "type": "string" } ],
            "relationships": [
              { "name": "column", "destination": "Column", "inverse": "cards" },
              { "name": "labels", "destination": "Label", "toMany": true, "inverse": "cards" },
              { "name": "next", "destination": "Card" } ] },
          { "name": "Label", "attributes": [ { "name": "name", "type": "string" } ],
            "relationships": [
              { "name": "board", "destination": "Board", "inverse": "labels" },
              { "name": "cards", "destination": "Card", "toMany": true, "inverse": "labels" } ] },
          { "name": "Folder",
            "attributes": [
              { "name": "name", "type": "string", "optional": true },
              { "name": "rootID", "type": "uuid", "optional": true, "userInfo": { "followParent": "rootID" } } ],
            "relationships": [
              { "name": "children", "destination": "Folder", "toMany": true, "inverse": "parent", "deleteRule": "cascade" },
              { "name": "parent", "destination": "Folder", "inverse": "children" } ] }
        ] }
        """
}
