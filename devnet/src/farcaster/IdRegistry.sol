// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Airlock Devnet IdRegistry
/// @notice The part of Farcaster's IdRegistry (Optimism, 0x00000000Fc6c5F01Fc30151999387Bb99A9f489b) that
///         Sign In With Farcaster reads: which fid a custody address owns (`idOf`) and the reverse
///         (`custodyOf`). `register` is open to anyone on purpose, so tests and the dev stack can give any
///         key a fid; the real registry sells fids through its gateway. Never deploy this anywhere real.
contract IdRegistry {
    mapping(address => uint256) public idOf;
    mapping(uint256 => address) public custodyOf;

    /// Named as the real registry's event, less its recovery address.
    event Register(address indexed to, uint256 indexed id);

    error InvalidFid();
    error InvalidCustody();
    error FidTaken(uint256 fid);
    error HasId(address custody);

    /// Gives `custody` the fid `fid`. As on Farcaster, an address owns at most one fid and a fid has one
    /// custody address.
    function register(address custody, uint256 fid) external {
        if (fid == 0) revert InvalidFid();
        if (custody == address(0)) revert InvalidCustody();
        if (custodyOf[fid] != address(0)) revert FidTaken(fid);
        if (idOf[custody] != 0) revert HasId(custody);
        idOf[custody] = fid;
        custodyOf[fid] = custody;
        emit Register(custody, fid);
    }
}
