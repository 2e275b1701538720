// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {DataUri} from "./DataUri.sol";

interface ERC721TokenReceiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data)
        external
        returns (bytes4);
}

/// @title Airlock Test Collectible
/// @notice A minimal ERC-721 (with metadata and ERC-165) for local devnets and tests; each token's metadata is
///         a data: URI with an SVG card. `mint` is open to anyone on purpose, as in TestToken: tests mint to
///         any account without an owner key. Never deploy this anywhere real.
contract TestCollectible {
    string public constant name = "Airlock Test Collectible";
    string public constant symbol = "ALTNFT";

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    mapping(uint256 => address) private owners;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);

    error NonexistentToken(uint256 tokenId);
    error NotAuthorized(address caller, uint256 tokenId);
    error WrongOwner(address from, uint256 tokenId);
    error InvalidReceiver(address to);

    /// @notice Mints `each` tokens to every one of `holders`, in order, ids from 1: the devnet's holdings are
    ///         made by the deployment alone, with no transaction after it.
    constructor(address[] memory holders, uint256 each) {
        for (uint256 i = 0; i < holders.length; i++) {
            for (uint256 k = 0; k < each; k++) {
                _mint(holders[i]);
            }
        }
    }

    /// @notice Mints the next token id to `to`.
    function mint(address to) external returns (uint256) {
        return _mint(to);
    }

    function ownerOf(uint256 tokenId) public view returns (address owner) {
        owner = owners[tokenId];
        if (owner == address(0)) revert NonexistentToken(tokenId);
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        string memory number = DataUri.decimal(tokenId);
        return DataUri.metadata(
            string.concat(name, " #", number),
            "A token of the Airlock devnet's test collection.",
            DataUri.card(DataUri.color(tokenId), string.concat("#", number), symbol)
        );
    }

    /// @notice ERC-165, ERC-721 and its metadata extension.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x80ac58cd || interfaceId == 0x5b5e139f;
    }

    function approve(address to, uint256 tokenId) external {
        address owner = ownerOf(tokenId);
        if (msg.sender != owner && !isApprovedForAll[owner][msg.sender]) revert NotAuthorized(msg.sender, tokenId);
        getApproved[tokenId] = to;
        emit Approval(owner, to, tokenId);
    }

    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }

    function transferFrom(address from, address to, uint256 tokenId) public {
        if (ownerOf(tokenId) != from) revert WrongOwner(from, tokenId);
        if (to == address(0)) revert InvalidReceiver(to);
        if (msg.sender != from && !isApprovedForAll[from][msg.sender] && getApproved[tokenId] != msg.sender) {
            revert NotAuthorized(msg.sender, tokenId);
        }
        delete getApproved[tokenId];
        unchecked {
            balanceOf[from]--;
        }
        balanceOf[to]++;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function safeTransferFrom(address from, address to, uint256 tokenId) external {
        safeTransferFrom(from, to, tokenId, "");
    }

    function safeTransferFrom(address from, address to, uint256 tokenId, bytes memory data) public {
        transferFrom(from, to, tokenId);
        if (
            to.code.length > 0
                && ERC721TokenReceiver(to).onERC721Received(msg.sender, from, tokenId, data)
                    != ERC721TokenReceiver.onERC721Received.selector
        ) revert InvalidReceiver(to);
    }

    function _mint(address to) private returns (uint256 tokenId) {
        if (to == address(0)) revert InvalidReceiver(to);
        tokenId = ++totalSupply;
        balanceOf[to]++;
        owners[tokenId] = to;
        emit Transfer(address(0), to, tokenId);
    }
}
