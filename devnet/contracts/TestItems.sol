// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DataUri} from "./DataUri.sol";

interface ERC1155TokenReceiver {
    function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes calldata data)
        external
        returns (bytes4);
    function onERC1155BatchReceived(
        address operator,
        address from,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external returns (bytes4);
}

/// @title Airlock Test Items
/// @notice A minimal ERC-1155 (with ERC-165 and per-id metadata URIs) for local devnets and tests: items of
///         any id (1–3 have names), each id's metadata a data: URI with an SVG card. `mint` is open to anyone
///         on purpose, as in TestToken. Never deploy this anywhere real.
contract TestItems {
    string public constant name = "Airlock Test Items";
    string public constant symbol = "ALTITEM";

    mapping(address => mapping(uint256 => uint256)) public balanceOf;
    mapping(address => mapping(address => bool)) public isApprovedForAll;

    event TransferSingle(
        address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value
    );
    event TransferBatch(
        address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values
    );
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    error NotAuthorized(address caller, address from);
    error InsufficientBalance(address from, uint256 id, uint256 balance, uint256 needed);
    error InvalidReceiver(address to);
    error LengthMismatch(uint256 ids, uint256 values);

    /// @notice Mints `values` of `ids` to every one of `holders`: the devnet's holdings are made by the
    ///         deployment alone, with no transaction after it.
    constructor(address[] memory holders, uint256[] memory ids, uint256[] memory values) {
        for (uint256 i = 0; i < holders.length; i++) {
            _mint(holders[i], ids, values);
        }
    }

    /// @notice Mints `values` of `ids` to `to` (any id; 1–3 have names).
    function mint(address to, uint256[] calldata ids, uint256[] calldata values) external {
        _mint(to, ids, values);
        _checkBatch(address(0), to, ids, values, "");
    }

    function uri(uint256 id) external pure returns (string memory) {
        string memory label = id == 1 ? "Brass Key" : id == 2 ? "Star Map" : id == 3 ? "Lantern" : "";
        string memory number = DataUri.decimal(id);
        if (bytes(label).length == 0) label = string.concat("Item #", number);
        return DataUri.metadata(
            label, "An item of the Airlock devnet's test items.", DataUri.card(DataUri.color(id + 3), label, symbol)
        );
    }

    /// @notice ERC-165, ERC-1155 and its metadata-URI extension.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0xd9b67a26 || interfaceId == 0x0e89341c;
    }

    function balanceOfBatch(address[] calldata accounts, uint256[] calldata ids)
        external
        view
        returns (uint256[] memory balances)
    {
        if (accounts.length != ids.length) revert LengthMismatch(accounts.length, ids.length);
        balances = new uint256[](ids.length);
        for (uint256 i = 0; i < ids.length; i++) {
            balances[i] = balanceOf[accounts[i]][ids[i]];
        }
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata data) external {
        _move(from, to, id, value);
        emit TransferSingle(msg.sender, from, to, id, value);
        if (
            to.code.length > 0
                && ERC1155TokenReceiver(to).onERC1155Received(msg.sender, from, id, value, data)
                    != ERC1155TokenReceiver.onERC1155Received.selector
        ) revert InvalidReceiver(to);
    }

    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata data
    ) external {
        if (ids.length != values.length) revert LengthMismatch(ids.length, values.length);
        for (uint256 i = 0; i < ids.length; i++) {
            _move(from, to, ids[i], values[i]);
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
        _checkBatch(from, to, ids, values, data);
    }

    function _move(address from, address to, uint256 id, uint256 value) private {
        if (msg.sender != from && !isApprovedForAll[from][msg.sender]) revert NotAuthorized(msg.sender, from);
        if (to == address(0)) revert InvalidReceiver(to);
        uint256 balance = balanceOf[from][id];
        if (balance < value) revert InsufficientBalance(from, id, balance, value);
        unchecked {
            balanceOf[from][id] = balance - value;
        }
        balanceOf[to][id] += value;
    }

    function _mint(address to, uint256[] memory ids, uint256[] memory values) private {
        if (to == address(0)) revert InvalidReceiver(to);
        if (ids.length != values.length) revert LengthMismatch(ids.length, values.length);
        for (uint256 i = 0; i < ids.length; i++) {
            balanceOf[to][ids[i]] += values[i];
        }
        emit TransferBatch(msg.sender, address(0), to, ids, values);
    }

    function _checkBatch(
        address from,
        address to,
        uint256[] memory ids,
        uint256[] memory values,
        bytes memory data
    ) private {
        if (
            to.code.length > 0
                && ERC1155TokenReceiver(to).onERC1155BatchReceived(msg.sender, from, ids, values, data)
                    != ERC1155TokenReceiver.onERC1155BatchReceived.selector
        ) revert InvalidReceiver(to);
    }
}
