//! Small documents, each with the bytes Go's `handler3.ToV3ProtoBinary` made of it
//! (k8s-oracle openapi-v3-protobuf), or Go's refusal.

use super::*;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap_or(0))
        .collect()
}

/// (What the document shows, the document, Go's protobuf as hex.)
const GO: &[(&str, &str, &str)] = &[
    (
        "a document with references, extensions, defaults and additionalProperties",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"Kubernetes\",\"version\":\"v1.37\"},\"paths\":{\"/apis/x/v1/things\":{\"get\":{\"operationId\":\"listThings\",\"parameters\":[{\"$ref\":\"#/components/parameters/limit\"},{\"name\":\"watch\",\"in\":\"query\",\"schema\":{\"type\":\"boolean\",\"uniqueItems\":true}}],\"responses\":{\"200\":{\"description\":\"OK\",\"content\":{\"application/json\":{\"schema\":{\"$ref\":\"#/components/schemas/Thing\"}}}},\"401\":{\"description\":\"Unauthorized\"}},\"x-kubernetes-action\":\"list\",\"x-kubernetes-group-version-kind\":{\"group\":\"x\",\"kind\":\"Thing\",\"version\":\"v1\"}},\"parameters\":[{\"name\":\"pretty\",\"in\":\"query\",\"description\":\"d\",\"schema\":{\"type\":\"string\"}}]}},\"components\":{\"schemas\":{\"Thing\":{\"type\":\"object\",\"required\":[\"spec\"],\"properties\":{\"spec\":{\"default\":{},\"allOf\":[{\"$ref\":\"#/components/schemas/Spec\"}]},\"labels\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\",\"default\":\"\"}},\"any\":{\"additionalProperties\":true},\"none\":{\"additionalProperties\":false},\"count\":{\"type\":\"integer\",\"format\":\"int32\",\"default\":0,\"minimum\":-1,\"maximum\":10.5,\"maxLength\":-3},\"ratio\":{\"type\":\"number\",\"default\":0.5},\"flag\":{\"type\":\"boolean\",\"default\":false},\"mode\":{\"type\":\"string\",\"enum\":[\"*\",\"A\",\"\"],\"default\":\"A\"},\"items\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"x-kubernetes-list-type\":\"set\"}},\"x-kubernetes-group-version-kind\":[{\"group\":\"x\",\"kind\":\"Thing\",\"version\":\"v1\"}]},\"Spec\":{\"type\":\"object\",\"nullable\":true,\"example\":{\"a\":[1,\"b\"]},\"x-kubernetes-preserve-unknown-fields\":true}},\"parameters\":{\"limit\":{\"name\":\"limit\",\"in\":\"query\",\"schema\":{\"type\":\"integer\"}}},\"securitySchemes\":{\"BearerToken\":{\"type\":\"apiKey\",\"description\":\"Bearer\",\"name\":\"authorization\",\"in\":\"header\"}}},\"security\":[{\"BearerToken\":[]}]}",
        concat!(
            "0a05332e302e3012130a0a4b756265726e65746573320576312e333722db020ad8020a112f617069732f782f",
            "76312f7468696e677312c202229c022a0a6c6973745468696e67733221121f0a1d232f636f6d706f6e656e74",
            "732f706172616d65746572732f6c696d697432210a1f0a05776174636812057175657279520f0a0da00101ca",
            "0107626f6f6c65616e426012450a03323030123e0a3c0a024f4b1a360a340a106170706c69636174696f6e2f",
            "6a736f6e12200a1e121c0a1a232f636f6d706f6e656e74732f736368656d61732f5468696e6712170a033430",
            "3112100a0e0a0c556e617574686f72697a65646a1e0a13782d6b756265726e657465732d616374696f6e1207",
            "12056c6973740a6a460a1f782d6b756265726e657465732d67726f75702d76657273696f6e2d6b696e641223",
            "122167726f75703a20780a6b696e643a205468696e670a76657273696f6e3a2076310a6a210a1f0a06707265",
            "747479120571756572791a0164520b0a09ca0106737472696e672ab9050acf040aec030a055468696e6712e2",
            "030adf03ba010473706563ca01066f626a656374fa01fc020a2d0a047370656312250a23d2011d121b0a1923",
            "2f636f6d706f6e656e74732f736368656d61732f537065638a02000a2a0a066c6162656c7312200a1eca0106",
            "6f626a6563748202120a100a0eca0106737472696e678a02021a000a0e0a03616e7912070a0582020210010a",
            "0f0a046e6f6e6512070a0582020210000a460a05636f756e74123d0a3b590000000000002540690000000000",
            "00f0bf78fdffffffffffffffff01ca0107696e74656765728a02090900000000000000009a0205696e743332",
            "0a200a05726174696f12170a15ca01066e756d6265728a020909000000000000e03f0a190a04666c61671211",
            "0a0fca0107626f6f6c65616e8a020210000a310a046d6f646512290a27c201061204272a270ac20104120241",
            "0ac20105120322220aca0106737472696e678a02031a01410a460a056974656d73123d0a3bca010561727261",
            "79f2010d0a0b0a09ca0106737472696e67a202200a16782d6b756265726e657465732d6c6973742d74797065",
            "120612047365740aa2024c0a1f782d6b756265726e657465732d67726f75702d76657273696f6e2d6b696e64",
            "122912272d2067726f75703a20780a20206b696e643a205468696e670a202076657273696f6e3a2076310a0a",
            "5e0a045370656312560a5408013a151213613a0a202020202d20310a202020202d20620aca01066f626a6563",
            "74a2022f0a24782d6b756265726e657465732d70726573657276652d756e6b6e6f776e2d6669656c64731207",
            "1205747275650a1a290a270a056c696d6974121e0a1c0a056c696d697412057175657279520c0a0aca010769",
            "6e74656765723a3a0a380a0b426561726572546f6b656e12290a270a066170694b657912064265617265721a",
            "0d617574686f72697a6174696f6e220668656164657232110a0f0a0b426561726572546f6b656e1200",
        ),
    ),
    (
        "a reference's other keys are dropped; a null default is an empty DefaultType",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"$ref\":\"#/x\",\"type\":\"object\"}}}}",
        "0a05332e302e3012060a017432013122002a100a0e0a0c0a0141120712050a03232f78",
    ),
    (
        "scalars and sequences where mappings belong read as empty messages",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"items\":\"a\",\"properties\":[1,2],\"allOf\":{\"a\":1},\"not\":\"x\",\"additionalProperties\":\"x\"}}}}",
        concat!(
            "0a05332e302e3012060a017432013122002a280a260a240a0141121f0a1dea0100f201040a020a00fa01090a",
            "070a013112020a008202040a020a00",
        ),
    ),
    (
        "a default that is a list is an empty DefaultType; numbers keep their text in YAML",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"default\":[1],\"enum\":[1.50,-0,1e3,null,true]}}}}",
        concat!(
            "0a05332e302e3012060a017432013122002a3d0a3b0a390a014112340a32c201071205312e35300ac2010512",
            "032d300ac2010612043165330ac2010712056e756c6c0ac201071205747275650a8a0200",
        ),
    ),
];

/// (What is wrong, a document Go refuses.)
const REFUSED: &[(&str, &str)] = &[
    (
        "a reference that is not a string",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"$ref\":true}}}}",
    ),
    (
        "a path that does not start with /",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{\"x\":{}}}",
    ),
    (
        "a required key missing",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\"},\"paths\":{}}",
    ),
    (
        "an int64 that is a float",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"maxLength\":1.5}}}}",
    ),
    (
        "required that is not a list",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"required\":\"a\"}}}}",
    ),
    (
        "a discriminator without its property name",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"discriminator\":\"x\"}}}}",
    ),
    (
        "a schema key gnostic does not know",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"x-ok\":1,\"$schema\":\"x\"}}}}",
    ),
    (
        "a raw DEL, which YAML does not allow",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"description\":\"\u{7f}\"}}}}",
    ),
    (
        "an escaped surrogate pair, which YAML does not read",
        "{\"openapi\":\"3.0.0\",\"info\":{\"title\":\"t\",\"version\":\"1\"},\"paths\":{},\"components\":{\"schemas\":{\"A\":{\"description\":\"\\ud83d\\ude00\"}}}}",
    ),
];

#[test]
fn documents_are_encoded_as_go_encodes_them() {
    for (what, json, want) in GO {
        assert_eq!(document_protobuf(json.as_bytes()), Ok(hex(want)), "{what}");
    }
}

#[test]
fn documents_go_refuses_are_errors() {
    for (what, json) in REFUSED {
        assert!(document_protobuf(json.as_bytes()).is_err(), "{what}");
    }
    assert!(document_protobuf(b"not json").is_err());
}
